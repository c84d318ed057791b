"""Bit counting for the compiled kernels, as LLVM's own operations: `popcount(x)` (the set bits) and
`low_bit(x)` (the index of the lowest set bit, x != 0). Each compiles to one machine instruction where the
machine has it (popcnt, tzcnt), inside the calling kernel: no call, no table. They take and return any
integer type, so a kernel's masks keep their own width.

The search kernels spend much of their time walking bit masks (the dominoes or cards a hand holds); a
table lookup by `(x & -x) % 37` or a shift-and-add popcount cost them some tenth of their time.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of the integer `x`."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def low_bit(typingctx, x):
    """The index of the lowest set bit of the integer `x`, which must not be 0."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))  # (x = 0 is not asked: poison)

    return x(x), codegen
