"""Host tools for the sabot: the simulator front end, and later the journal verifier and deploy tools."""
