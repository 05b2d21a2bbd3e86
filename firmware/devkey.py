"""The development key: the simulator and the tests sign journals with it, and the verifier says so.

A shoe in a casino has its own key, provisioned at commissioning (docs/keys.md); never this one. It is in
firmware/ so that the verifier and a board's firmware can both recognise it.
"""

DEVELOPMENT_KEY = b"sabot development key: not for use in a casino!"
