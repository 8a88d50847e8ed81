"""The SSH transport: asyncssh's server, one Textual app per session over a remote terminal
(its driver, input limits, colour depth, output settings), host key and connection limits.
It knows nothing of the club: it serves whatever app ``start_server`` is given."""
