"""Every write to lessons and tables, one module per topic: :mod:`.moves` (playing, previews, the move log and its
broadcasts), :mod:`.lessons` (starting and ending a lesson, seating) and :mod:`.moderation` (the teacher pausing,
resuming or ending a table, taking a player out). Views and consumers import the module they need; nothing else
writes. Every refusal is a :class:`games.engine.AppError`.
"""
