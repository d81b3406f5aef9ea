"""What each rules-profile field means and where its default comes from: the seed sentence
(000 = Combat Ratings, 002 = Combat) or the rules-decisions item (RD). The Rules settings
dialog shows it; a test checks every field has an entry.

>>> FIELD_DOCS["double_success_margin"].section
'Shove'
"""

from __future__ import annotations

from typing import NamedTuple


class FieldDoc(NamedTuple):
    section: str
    label: str
    source: str


SHOVE, SLAM, HAZARDS, GRID, ATTACK, ROUND, CONDITIONS, SURPRISE, SIGHT, MISSILES = (
    "Shove", "Slams", "Hazards and falls", "Grid and movement", "Attack and damage",
    "Round timeline", "Conditions", "Surprise", "Sight", "Cover and missiles")
MELEE, GRAPPLE = "Melee manoeuvres", "Grappling"
MORALE, SLEEP = "Morale", "Sleep"
LOCATION, INJURY = "Hit location", "Injury options"
UNARMED, DEFENCE = "Unarmed combat", "Defence and declarations"
CRITICAL = "Critical events"

FIELD_DOCS: dict[str, FieldDoc] = {
    "ability_table": FieldDoc(GRID, "Ability modifier table",
                              "RD Ability modifiers: the classic table 3: −3 … 18: +3"),
    "size_penalty_per_category": FieldDoc(
        SHOVE, "FR penalty per size category larger",
        "000 Size and FR interaction: 'For every size category a target is larger than the "
        "attacker apply a -4 penalty to FR rolls'"),
    "mastery_reduction": FieldDoc(
        SHOVE, "Mastery reduces the size penalty by",
        "000: 'This penalty is reduced by Mastery rank as described in the Wrestling and "
        "Shove sections' (missing from the seed); RD Shove 2: one category per rank"),
    "double_success_margin": FieldDoc(SHOVE, "Margin for a Double Success",
                                      "RD Shove 3: margin ≥ 10"),
    "double_success_distance_ft": FieldDoc(
        SHOVE, "Double Success distance (ft, at least)",
        "000 Forceful Defense: 'the 10ft displacement and Prone result'; RD Shove 6"),
    "double_success_prone": FieldDoc(SHOVE, "A Double Success knocks Prone",
                                     "000 Forceful Defense: 'displacement and Prone result'"),
    "die_chain": FieldDoc(SHOVE, "Shove die chain",
                          "000 The Force Multiplier: 'd4 → d6 → d8 → d10 → d12 → 2d6 → 2d8'"),
    "die_chain_cap": FieldDoc(SHOVE, "Largest shove die", "000 The Force Multiplier: 2d8"),
    "fr_points_per_die_step": FieldDoc(
        SHOVE, "FR points per shove die step",
        "000: 'for every 3 points of FR bonus the attacker's Shove die increases one step'"),
    "higher_ground_die_steps": FieldDoc(SHOVE, "Shove die steps from higher ground",
                                        "000 Terrain: 'Attacker on higher ground | +1 to "
                                        "Shove die'"),
    "higher_ground_resist": FieldDoc(SHOVE, "Resist for a defender on higher ground",
                                     "000 Terrain: '+2 to defender's Resist'"),
    "difficult_terrain_resist": FieldDoc(SHOVE, "Resist on difficult terrain",
                                         "000 Terrain: 'Difficult terrain (rubble, mud) | +2 "
                                         "to Resist'"),
    "slippery_bonus_ft": FieldDoc(SHOVE, "Extra feet on a slippery surface",
                                  "000 Terrain: 'Slippery surface (ice, wet stone) | +2 to "
                                  "all displacement distances'"),
    "direction_spread_deg": FieldDoc(SHOVE, "Push directions allowed (° from straight away)",
                                     "RD Shove 8: within 90°"),
    "reach_required": FieldDoc(SHOVE, "A shove needs the target adjacent",
                               "RD Shove 1: adjacent to the defender's footprint"),
    "creature_collision": FieldDoc(SHOVE, "A creature in the way is",
                                   "RD Shove 11: stop, no damage (option: solid)"),
    "defensive_stance_fd_per_mastery": FieldDoc(
        SHOVE, "FD per Mastery rank in Defensive Stance",
        "000 FD Formula: '+ Mastery bonus (during Defensive Stance)'"),
    "slam_rolls_per_fr_points": FieldDoc(
        SLAM, "FR points per slam die",
        "000 Terrain: 'take Shove Die damage per 2 points of attacker's FR'"),
    "slam_min_rolls": FieldDoc(SLAM, "Slam dice at least", "RD Shove 10: max(1, ⌊FR / 2⌋)"),
    "slam_min_unused_ft": FieldDoc(SLAM, "Unused feet that still slam",
                                   "RD Shove 10: 'Any unused distance of 1 ft or more'"),
    "slam_av_per_die": FieldDoc(SLAM, "Each slam die through AV separately",
                                "RD Shove 10: one hit by default (option: AV per die)"),
    "drop_hazard_ft": FieldDoc(HAZARDS, "A drop this deep is a cliff (ft)",
                               "RD Shove 13: 10 ft or more lower"),
    "fall_die": FieldDoc(HAZARDS, "Falling damage die", "RD Shove 13: 1d6 per 10 ft"),
    "fall_feet_per_die": FieldDoc(HAZARDS, "Feet fallen per die", "RD Shove 13: per 10 ft"),
    "falls_ignore_av": FieldDoc(HAZARDS, "Falls ignore armour",
                                "000: 'AV applies to all physical damage'; RD Shove 13 option"),
    "cell_size_ft": FieldDoc(GRID, "Feet per cell", "RD Sizes: a 5 ft grid"),
    "diagonal_rule": FieldDoc(GRID, "Diagonal steps count", "RD Shove 9: 5-10-5"),
    "movement_ft_per_segment": FieldDoc(GRID, "Feet moved per segment",
                                        "002 Movement: 'approximately 5' per second'"),
    "penetration_points": FieldDoc(ATTACK, "Damage that always gets through armour",
                                   "000 AV: 'one point of damage always penetrates'"),
    "cover_step_percent": FieldDoc(MISSILES, "Cover percent per step of defence",
                                   "002 Cover: 'for each 20% of cover'; RD: ⌈% / 20⌉ matches "
                                   "002's table"),
    "cover_bonus_per_20_percent": FieldDoc(MISSILES, "Defence per step of cover",
                                           "002 Cover: 'A bonus of +1 ... for each 20% of "
                                           "cover'"),
    "arrow_slit_visible_percent": FieldDoc(MISSILES, "Arrow slit: visible at most (%)",
                                           "002 Cover table: 'Arrow Slit >95'; RD: visible "
                                           "share above 0 and at most 5%"),
    "arrow_slit_bonus": FieldDoc(MISSILES, "Arrow slit defence",
                                 "002 Cover table: 'Arrow Slit >95 | +10'"),
    "concealment_percent": FieldDoc(MISSILES, "Undergrowth counts as cover (%)",
                                    "002 Concealment: 'typically equates to 20% cover'"),
    "short_range_modifier": FieldDoc(MISSILES, "Short range: to hit",
                                     "RD Missiles: short 0, medium −2, long −5"),
    "medium_range_modifier": FieldDoc(MISSILES, "Medium range: to hit",
                                      "RD Missiles: short 0, medium −2, long −5"),
    "long_range_modifier": FieldDoc(MISSILES, "Long range: to hit",
                                    "RD Missiles: short 0, medium −2, long −5"),
    "medium_clearance_divisor": FieldDoc(MISSILES, "Medium range needs 1/N of it in height",
                                         "002 Missiles: 'At medium range they need 1/3 "
                                         "height of the range'"),
    "long_clearance_divisor": FieldDoc(MISSILES, "Long range needs 1/N of it in height",
                                       "002 Missiles: 'at long range they need 1/2 the "
                                       "height'"),
    "packed_group_count": FieldDoc(MISSILES, "A packed group: creatures at least",
                                   "002: 'If firing at a packed group ... it's always counted "
                                   "as short range'; RD: 3+ within 5 ft"),
    "packed_group_ft": FieldDoc(MISSILES, "A packed group: within (ft) of the target",
                                "RD Missiles: 3+ creatures within 5 ft of the target"),
    "into_melee_bonus": FieldDoc(MISSILES, "Firing into melee: defence + the friend's cover",
                                 "002 Missile fire into combat: 'a defence bonus of \"2 + "
                                 "cover %\"'"),
    "lobbed_beyond_ft": FieldDoc(MISSILES, "A lobbed miss lands first beyond (ft)",
                                 "002 Misses: 'will land 4' beyond the target + the miss "
                                 "distance'"),
    "scatter_die": FieldDoc(MISSILES, "Direction of a miss (a clock die)",
                            "002 Misses: 'rolled randomly (d12 or arrow die)'; RD: 12 is "
                            "straight on, clockwise"),
    "flight_segments_per_band": FieldDoc(MISSILES, "Flight time per band beyond short "
                                                   "(segments)",
                                         "002 Spoiling attacks: 'the flight time takes 1 "
                                         "segment per range unit ignoring point blank'"),
    "initiative_die": FieldDoc(ROUND, "Initiative die",
                               "RD Round timeline: d10 − DEX modifier + personal modifier"),
    "initiative_min_segment": FieldDoc(ROUND, "First segment",
                                       "002: 'Anything lower than 1 counts as zero'"),
    "initiative_max_segment": FieldDoc(ROUND, "Last segment shown",
                                       "002: 'anything higher than 10 counts as 11'"),
    "last_attack_segment": FieldDoc(ROUND, "Last segment with an attack",
                                    "002: 'If the total is greater than 10, no attack'"),
    "scarper_initiative": FieldDoc(ROUND, "Scarpering initiative",
                                   "002 Scarper: 'gain an initiative of 1'"),
    "scarper_defence_bonus": FieldDoc(ROUND, "Scarpering defence bonus",
                                      "002 Scarper: 'Use the defence +2 for not attacking'"),
    "aiming_attack_bonus": FieldDoc(ROUND, "Bonus after a round of aiming",
                                    "002 Aiming: 'Miss a round, +3 to attack'"),
    "critical_event_die": FieldDoc(ROUND, "Critical event die", "002 Critical events: d30"),
    "declaration_seconds": FieldDoc(ROUND, "Declaration time (seconds)",
                                    "002: 'The round will start after 2 minutes'"),
    "failure_levels": FieldDoc(ROUND, "Failure levels (failed by at least)",
                               "RD Failure levels: 1–3 Unlucky, 4–6 Bad, 7–9 Dreadful, "
                               "10–12 Appalling, 13+ Catastrophic"),
    "dazed_penalty": FieldDoc(CONDITIONS, "Dazed: on every roll",
                              "002 Stunning table: 'Dazed -2 on all skills'"),
    "stunned_penalty": FieldDoc(CONDITIONS, "Stunned: on every roll",
                                "002 Stunning table: 'Stunned -4 on all skills'"),
    "knockdown_penalty": FieldDoc(CONDITIONS, "Knockdown: on every roll",
                                  "002 Stunning table: 'Knockdown -6 on all skills'"),
    "prone_defence_penalty": FieldDoc(CONDITIONS, "Prone: AC and FD",
                                      "RD Conditions: −5 defence; 002 event 15 '(-5 Def)'"),
    "ko_rounds": FieldDoc(CONDITIONS, "Knocked out for (rounds after this one)",
                          "002: 'KO for 1 round then knockdown'"),
    "catastrophic_ko_rounds": FieldDoc(CONDITIONS, "Catastrophic knock-out (rounds)",
                                       "002 Stunning table: Catastrophic '5 minutes'"),
    "surprise_spot_target": FieldDoc(SURPRISE, "Spot save against",
                                     "002 Surprise: 'a standard (12) Spot saving throw'"),
    "alertness": FieldDoc(SURPRISE, "States of alert", "002 Surprise: State of alert table"),
    "surprise_hit_bonus": FieldDoc(SURPRISE, "Free attacks: to hit",
                                   "002 Surprise: 'Attacks are +2 to hit'"),
    "surprise_damage_per_level": FieldDoc(SURPRISE, "Free attacks: damage per level",
                                          "002 Surprise: '+1 damage per failure level'"),
    "dim_sight_ft": FieldDoc(SIGHT, "Sight in dim light (ft)",
                             "docs/vision.md: every token sees this far in dim light"),
    "multiple_attackers_bonus": FieldDoc(
        MELEE, "Multiple attackers: per attacker",
        "002 Multiple Attackers: '+1 attack skill for each attacker (including himself)'"),
    "multiple_attackers_min": FieldDoc(MELEE, "Multiple attackers: from this many",
                                       "RD Multiple attackers: 'when two or more are engaged'"),
    "force_back_base": FieldDoc(MELEE, "Forcing back: target base",
                                "RD Forcing back: d20 + HR vs 10 + defender HR"),
    "force_back_ft_per_point": FieldDoc(MELEE, "Forcing back: feet per point over",
                                        "002 Forcing back: 'for every point over the defender "
                                        "is forced back by 1''"),
    "force_back_ac_per_level": FieldDoc(MELEE, "Forcing back: AC lost per failure level",
                                        "002 Forcing back: 'for every failure level the "
                                        "attacker loses one from their armour class'"),
    "run_over_ft": FieldDoc(MELEE, "Run: straight run over (ft)", "002 Charge: 'Run = >10''"),
    "sprint_over_ft": FieldDoc(MELEE, "Sprint: straight run over (ft)",
                               "002 Charge: 'Sprint = >20''"),
    "run_bonus": FieldDoc(MELEE, "Run bonus", "002 Charge: 'Run = >10' (+2)'"),
    "sprint_bonus": FieldDoc(MELEE, "Sprint bonus", "002 Charge: 'Sprint = >20' (+4)'"),
    "charge_per_size_category": FieldDoc(MELEE, "Charge: per size category larger",
                                         "002 Charge: 'Brawl+Con+Height diff'; RD: 2 × size "
                                         "categories larger"),
    "overrun_base": FieldDoc(MELEE, "Overrun: difficulty base",
                             "RD Overrun: d20 + STR + FR ≥ 10 + …"),
    "overrun_per_speed_step": FieldDoc(MELEE, "Overrun: per speed step",
                                       "002 Overruns: 'Each mph ... increases the difficulty "
                                       "by 2'; RD: Run 1, Sprint 2"),
    "overrun_per_size_category": FieldDoc(MELEE, "Overrun: per size category larger",
                                          "RD Overrun: +4 per size category the mover is "
                                          "larger"),
    "overrun_braced": FieldDoc(MELEE, "Overrun: braced defender",
                               "002 Overruns: 'The defender bracing decreases the chance by 3'"),
    "evade_target": FieldDoc(MELEE, "Evading: manoeuvre check",
                             "002 Evading: 'requires a manouver check of 12'"),
    "stun_check_base": FieldDoc(CONDITIONS, "Stun check: difficulty base",
                                "002 Stunning: 'Difficulty = 10+SP suffered'"),
    "throw_figure": FieldDoc(GRAPPLE, "Throw figure", "002 Grappling: 'Throw (+3)'"),
    "takedown_figure": FieldDoc(GRAPPLE, "Takedown figure", "002 Grappling: 'Takedown (+3)'"),
    "lock_figure": FieldDoc(GRAPPLE, "Lock figure", "002 Grappling: 'Locks (+5)'"),
    "improve_lock_figure": FieldDoc(GRAPPLE, "Improve lock figure",
                                    "002 Grappling: 'Improve Lock (+4)'"),
    "escape_figure": FieldDoc(GRAPPLE, "Escape figure", "002 Grappling: 'Escape (+4/+2)'"),
    "escape_figure_holder_changing": FieldDoc(
        GRAPPLE, "Escape figure, holder changing hold",
        "002 Grappling: '+2 if opponent is changing their attack'"),
    "throw_damage": FieldDoc(GRAPPLE, "Throw damage", "002 Throw: 'Damage = D2 + stun save'"),
    "lock_damage": FieldDoc(GRAPPLE, "Lock damage each round",
                            "002 Locks: 'Cause D4 SP each round. Roll once and keep'"),
    "pin_attack_bonus": FieldDoc(GRAPPLE, "Pinning: to the pinner's attacks",
                                 "002 Takedown: 'pinned position on the floor. +1 to your "
                                 "attacks'"),
    "default_morale": FieldDoc(MORALE, "Morale of a creature with no score of its own",
                               "002 Morale: 'All NPCs and creatures have morale'; RD: "
                               "2–20, default 12"),
    "morale_dice": FieldDoc(MORALE, "Morale dice (≤ the score holds)",
                            "002 Morale: 'Morale is rolled on 2d10'; RD: 2d10 ≤ score passes"),
    "morale_roll": FieldDoc(MORALE, "Who rolls: one roll for the side, or each creature",
                            "002 Morale: 'Each NPC will have their own morale' (read against "
                            "one roll for the side, as the opposition's initiative)"),
    "leader_down_modifier": FieldDoc(MORALE, "A leader of the side down: to the score",
                                     "002 Morale: 'Leader killed (-3 on die roll)'; RD: −3 "
                                     "when the leader falls"),
    "outnumbered_ratio": FieldDoc(MORALE, "Outnumbered: enemies standing per one of ours",
                                  "002 Morale: 'Obviously heavily outgunned after an initial "
                                  "clash'; RD: outnumbered 2:1 once the side takes losses"),
    "casualty_percents": FieldDoc(MORALE, "Checks at this share of the side down (%)",
                                  "002 Morale: '50% casualties', '75% casualties'; RD: down "
                                  "is 0 HP or KO"),
    "morale_results": FieldDoc(MORALE, "Failure level → what the creature does",
                               "002 Morale: 'Fail by | Action' (Unlucky retreat, Bad drop "
                               "weapons and run, Appalling surrender, Catastrophic berserk); "
                               "RD: Dreadful counts as Bad (a level without a row counts as "
                               "the one below)"),
    "waking_rounds": FieldDoc(SLEEP, "Waking: rounds after the one woken in",
                              "002 Sleep: 'Round 1 Waking up - Foe auto hits double damage'"),
    "rising_rounds": FieldDoc(SLEEP, "Rising: rounds",
                              "002 Sleep: 'Round 2 Rising - Foe gets +1d8 to their attack'"),
    "defending_rounds": FieldDoc(SLEEP, "Defending only: rounds",
                                 "002 Sleep: 'Round 3 Defend - Foe attacks nornmally'"),
    "rising_attack_die": FieldDoc(SLEEP, "Foes' die to attack a rising creature",
                                  "002 Sleep: 'Foe gets +1d8 to their attack'"),
    "waking_damage_multiplier": FieldDoc(SLEEP, "Damage to a sleeping or waking creature ×",
                                         "002 Sleep: 'Foe auto hits double damage'"),
    "hit_location": FieldDoc(LOCATION, "Roll a hit location on every hit",
                             "002 Hit Location: 'Roll 1d10 to determine where you hit'; RD "
                             "Injury: off by default"),
    "hit_location_die": FieldDoc(LOCATION, "Hit location die", "002 Hit Location: 'Roll 1d10'"),
    "hit_locations": FieldDoc(
        LOCATION, "Hit location table (faces, aim modifiers, critical)",
        "002 Hit Location: Head 10, Shoulder & upper arms 9, Upper torso 7-8, Lower Torso 4-6, "
        "Thighs 2-3, Lower arms / Shins 1; 002 Hitting specific locations: melee / missile "
        "modifiers Head -10/-15, Shoulder -3/-10, Upper torso -4/-8, Lower Torso -3/-6, "
        "Thighs -2/-8, Lower arms -4/-10; 002 Critical Locations: the head"),
    "head_hits_stun": FieldDoc(LOCATION, "Head hits by bludgeons call a stun check",
                               "002 Stunning: 'Bludgeon/chop strikes to the head may stun a "
                               "cretaure'; RD Injury (needs the hit location roll)"),
    "stunning_damage_types": FieldDoc(LOCATION, "Damage types that stun on a head hit",
                                      "002 Stunning: 'Bludgeon/chop'; RD: bludgeons; 'A sword "
                                      "pommel is too unwieldy to knock out a person'"),
    "highest_die_damage": FieldDoc(INJURY, "Damage: highest die of each set",
                                   "002 Damage: 'Pick the die with the highest value as the "
                                   "damage ... pick the highest from each set and add them'"),
    "wounds": FieldDoc(INJURY, "Every few points after armour are wound points",
                       "002 Damage: 'every 5th point is taken as a wound point not a stamina "
                       "point'; RD Injury: off by default"),
    "wound_every_points": FieldDoc(INJURY, "A wound point every … points",
                                   "002 Damage: 'every 5th point'"),
    "attack_die": FieldDoc(INJURY, "Attack roll dice (attacks and missiles)",
                           "000 Hit Roll: d20; RD Injury: 'double 8' needs 2d8 attack dice"),
    "critical_roll": FieldDoc(INJURY, "Critical roll: the highest roll does maximum damage",
                              "002 Critical Roll: 'Rolling a double 8 is counted as a critical "
                              "and automatically causes maximum damage'; RD: natural 20"),
    "critical_location_multiplier": FieldDoc(
        INJURY, "Critical roll on a critical location: × maximum damage",
        "002 Critical Roll: 'A critical roll on a critical location causes double damximum "
        "damage'"),
    "fumble": FieldDoc(INJURY, "Fumble on the lowest roll",
                       "002 Fumble: 'On a fumble you save on a d10 < fighting level. If you fail "
                       "then a critial event occurs that benefits the opponent'"),
    "fumble_save_die": FieldDoc(INJURY, "Fumble save die (roll < level saves)",
                                "002 Fumble: 'save on a d10 < fighting level'"),
    "hero_points": FieldDoc(INJURY, "Hero points may be spent",
                            "002 Damage: 'A hero point causes either: Double damage, Automatic "
                            "hit (unless aiming for a specific location), +10 to hit'"),
    "hero_hit_bonus": FieldDoc(INJURY, "Hero point: to hit", "002 Damage: '+10 to hit'"),
    "hero_damage_multiplier": FieldDoc(INJURY, "Hero point: damage ×",
                                       "002 Damage: 'Double damage'"),
    "grip_hit_bonus": FieldDoc(INJURY, "1½ or 2 hands on a one-hand weapon: to hit",
                               "002 One or two hands: 'To Hit bonus +1'; 'If a weapon can only "
                               "be used with 2 hands it does not get the \"To hit\" bonus'"),
    "one_and_half_grip_damage": FieldDoc(INJURY, "1½ hands: damage bonus",
                                         "002 One or two hands: '1½ | +d3 | +1' (two hands: "
                                         "the weapon's own bonus, 'd3 / +d6')"),
    "popup_spot_target": FieldDoc(MISSILES, "Pop-up shot: Spot difficulty",
                                  "002 Pop-up missile shots: 'Spot difficulty is a 9'"),
    "multiple_attack_penalty": FieldDoc(
        DEFENCE, "Multiple attacks: penalty per extra attack (to hit and to defence)",
        "002 Multiple Attacks: 'every extra attack not only suffers -3 to each attack but also "
        "-3 to your parry skill'"),
    "stand_to_defend_bonus": FieldDoc(DEFENCE, "Standing to defend: defence against melee",
                                      "002 Not attacking: 'Whichever defence used method you "
                                      "gain +2'"),
    "parry_and_dodge": FieldDoc(DEFENCE, "Parry or dodge instead of AC against melee",
                                "002 Defence - Melee: 'a character may either parry a blow, "
                                "dodge it'; RD: a profile option, off by default"),
    "defence_base": FieldDoc(DEFENCE, "Parry and dodge: base", "RD Parry and dodge: '11 +'"),
    "parry_size_modifiers": FieldDoc(
        DEFENCE, "Parry: size (Tiny, Small, Medium, Large, Huge, Gargantuan)",
        "002 Size Effects, 'Melee / Width' column (Tiny −1, Small −2, Medium 0, Big +1, Huge "
        "+2, Enormous +3; Large read as Big and Gargantuan as Enormous: interpreted)"),
    "dodge_size_modifiers": FieldDoc(
        DEFENCE, "Dodge: size (Tiny, Small, Medium, Large, Huge, Gargantuan)",
        "002 Size Effects, 'Ranged / Dodge' column (Tiny +3, Small +2, Medium 0, Big −1, Huge "
        "−2, Enormous −3)"),
    "dodge_unprotected_penalty": FieldDoc(
        DEFENCE, "Dodge without a shield or a substantial weapon",
        "002 Dodging: 'suffer a -2 penalty to your defence if you don't have a shield or a "
        "substantial weapon (short sword size or larger)'"),
    "critical_side_die": FieldDoc(CRITICAL, "Side affected die (1 party, 2 opposition, 3 both)",
                                  "RD Critical events: 'the side affected is rolled on a d3'"),
    "lucky_break_die": FieldDoc(CRITICAL, "Lucky break (16): to AC and saves",
                                "002 Critical events: '+d6 to defence & saves'"),
    "lucky_opening_die": FieldDoc(CRITICAL, "Lucky opening (17): to the next attack",
                                  "002 Critical events: '+d6 to hit'"),
    "really_lucky_opening_die": FieldDoc(CRITICAL, "Really lucky opening (18): to the next "
                                                   "attack", "002 Critical events: '+d10 to hit'"),
    "shift_direction_die": FieldDoc(CRITICAL, "Battlefield shift (10): direction die (1 = N, "
                                              "clockwise)", "RD: 'd8 direction' (002: 'random "
                                                            "direction')"),
    "shift_distance_die": FieldDoc(CRITICAL, "Battlefield shift (10): distance die",
                                   "002 Critical events: '5-10 feet'; RD: d2 × 5 ft"),
    "shift_ft_per_point": FieldDoc(CRITICAL, "Battlefield shift (10): feet per point",
                                   "002 Critical events: '5-10 feet'; RD: d2 × 5 ft"),
    "critical_retreat_ft": FieldDoc(CRITICAL, "Retreat (19): feet",
                                    "002 Critical events: '1 party retreats by 10''"),
    "shield_damage_penalty": FieldDoc(CRITICAL, "Shield damaged (2): defence lost each time",
                                      "002 Critical events: 'Shield damaged ( -1 Def)'"),
    "armour_dent_penalty": FieldDoc(CRITICAL, "Armour dented (4): AC lost each time",
                                    "002 Critical events: 'Armour dented ( -1 Defence)'; RD: "
                                    "AC, not AV"),
    "stymied_rounds": FieldDoc(CRITICAL, "Stymied (22): round ends it lasts (this round "
                                         "counts)",
                               "002 Critical events: 'No hero points this or next round'"),
    "befuddled_rounds": FieldDoc(CRITICAL, "Befuddled (25): round ends it lasts (this round "
                                           "counts)",
                                 "002 Critical events: 'Befuddled: If attacked; no skill "
                                 "action next round'; RD: to the round's end"),
    "befuddled_attacked_rounds": FieldDoc(
        CRITICAL, "Befuddled (25) and attacked: round ends it lasts from then",
        "002 Critical events: 'If attacked; no skill action next round': through the next "
        "round"),
    "wild_opening_multiplier": FieldDoc(CRITICAL, "Wild opening (26): damage ×",
                                        "RD Critical events: 'the same with damage doubled "
                                        "before AV'"),
    "knee_high_size": FieldDoc(MELEE, "Lower than knee height: this size and smaller",
                               "002 Overruns: 'Creatures lower than knee height cannot overrun "
                               "a braced character'; RD: Tiny"),
    "declaration_extra_seconds": FieldDoc(ROUND, "Declaration time: the +2 min step (seconds)",
                                          "002 Initiative: 'The DM may delay this period'"),
    "declaration_seconds_per_creature": FieldDoc(
        ROUND, "Declaration time: most extra seconds per opposition creature",
        "002 Initiative: 'though this should not exceed 2 minutes per creature'"),
    "non_humanoid_critical_multiplier": FieldDoc(
        LOCATION, "Non-humanoid hit on a critical location: damage ×",
        "002 Critical Locations: 'Other creatures unless otherwise noted suffer double damage'"),
    "special_penetration_margin": FieldDoc(
        LOCATION, "Special damage: penetrates when damage ≥ AV + this",
        "002 Special Damage: 'only do so if they penetrate your armour'; RD: AV + 2"),
    "metal_armours": FieldDoc(UNARMED, "Metal armours (no pummelling against them)",
                              "002 Pummelling: 'You can't pummel against metal armour.'; RD "
                              "Pummelling: Scale, Chain Mail, Banded, Plate, Suit, Elven Chain, "
                              "Dwarven Plate"),
    "martial_arts_dice": FieldDoc(UNARMED, "Martial artist's pummel die, by level step",
                                  "002 Pummelling: 'Martial artists damage rises with levels as "
                                  "a normal weapon' (Interp.: d2, d4 … d12)"),
    "martial_arts_levels_per_die": FieldDoc(UNARMED, "Levels per martial arts die step",
                                            "Interp. of 002 Pummelling: a step every 3 levels "
                                            "(d2 at 1-2, d4 at 3-5 …)"),
    "surprise_shielding": FieldDoc(
        SURPRISE, "An unsurprised creature engaging the ambusher cancels its later free "
                  "attacks",
        "002 Surprise: 'the unsuprised character may engage the enemy preventing them from "
        "getting the free attack on the surprised one'; RD Shielding the surprised"),
    "spoiling_needs_notice": FieldDoc(
        ROUND, "Spoiling needs the attacker concentrating on the action or noticing it",
        "002 Spoiling attacks: 'If you are not concentrating then a perception roll must be "
        "made to notice the movements of the caster'"),
    "spoil_perception_target": FieldDoc(
        ROUND, "Spoiling: perception difficulty at the action's first segment",
        "002 Spoiling attacks gives no base; Interp.: 002 Surprise's 'standard (12)' Spot "
        "save"),
    "spoil_perception_per_segment": FieldDoc(
        ROUND, "Spoiling: perception difficulty less per segment performed",
        "002 Spoiling attacks: 'For each segment that the action is performed the perception "
        "roll difficulty reduces by one'"),
    "spoil_perception_die": FieldDoc(ROUND, "Spoiling: perception die",
                                     "Interp.: a d20 like every save (000 Hit Roll)"),
    "spoil_perception_segments": FieldDoc(
        ROUND, "Spoiling: segments the perception takes (hits spoil from then)",
        "002 Spoiling attacks: 'The perception takes one segment to perform'"),
    "group_overrun_share": FieldDoc(
        MELEE, "Group overrun: the mass of 1/N of the group",
        "002 Overruns: 'In the case of many smaller creatures the mass of half the group is "
        "used'"),
    "group_overrun_mass_per_category": FieldDoc(
        MELEE, "Group overrun: mass ratio per size category",
        "RD Group overrun: + ⌊log2⌊N/2⌋⌋ size categories (each category doubles the mass)"),
    "surprise_hit_per_level": FieldDoc(
        SURPRISE, "Free attacks: the to-hit bonus is per failure level left",
        "002 Surprise: 'Attacks are +2 to hit and +1 damage per failure level'; RD Shielding "
        "the surprised: '+2 × (L − k + 1) to hit and +(L − k + 1) damage'"),
    "size_footprints": FieldDoc(
        GRID, "Footprint of each size in cells across (Tiny, Small, Medium, Large, Huge, "
              "Gargantuan)",
        "RD Sizes: 'Footprint on a 5 ft grid: Tiny, Small, Medium = 1 cell; Large 2×2; Huge "
        "3×3; Gargantuan 4×4'"),
}
