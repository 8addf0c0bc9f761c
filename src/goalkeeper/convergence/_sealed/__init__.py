"""Files the sealed checks run with: copied to a private directory for every check, never imported."""
