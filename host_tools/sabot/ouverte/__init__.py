"""Baccara à banque ouverte, Article 61: what the casino owes the authorities about its séances
(`sabot ouverte declaration`)."""
