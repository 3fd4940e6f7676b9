"""Lexicons: word lists games validate against."""
