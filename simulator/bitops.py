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


@intrinsic
def prefetch(typingctx, table, row):
    """Ask the processor to bring row `row` of the 2-D array `table` into its cache, without waiting for
    it: a later read of that row then finds it there. No effect on any value."""
    if not (isinstance(table, types.Array) and table.ndim == 2 and isinstance(row, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        from numba.core import cgutils

        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        zero = ir.Constant(ir.IntType(64), 0)
        ptr = cgutils.get_item_pointer2(
            context,
            builder,
            data=ary.data,
            shape=cgutils.unpack_tuple(builder, ary.shape),
            strides=cgutils.unpack_tuple(builder, ary.strides),
            layout=aryty.layout,
            inds=[args[1], zero],
            wraparound=False,
        )
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]), "llvm.prefetch.p0"
        )
        # (read, keep in all cache levels, data cache)
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(table, row), codegen
