"""A complete game of Konflikt '47 or Bolt Action 1st edition on a real table."""
