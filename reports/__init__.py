"""Tables, intervals and reports built from simulation results."""
