"""Text, tables and pictures made from engine state; nothing here changes a rule."""
