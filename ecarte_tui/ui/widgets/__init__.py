"""The pieces of the table: each draws from one seat's view and nothing else."""
