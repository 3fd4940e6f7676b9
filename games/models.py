"""Games: tables, seats and the move log (rules live in games/rules, pure)."""
