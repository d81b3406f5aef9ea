"""The data model: grid, tables, rules profile, dice, combatants, map, encounter."""
