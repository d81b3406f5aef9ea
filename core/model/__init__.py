"""The data model: grid, tables, rules profile, dice, combatants, map, encounter.

An empty list or dict default is written ``Field(default=[])``: pydantic gives each model
its own copy of a default it cannot hash, and ``default_factory=list`` made it read the
built-in's text signature for every such field when the models were made (2 ms of every
start).
"""
