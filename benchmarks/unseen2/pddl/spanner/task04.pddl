(define (problem spanner-6-4-3) (:domain spanner)
  (:objects bob - man spanner0 spanner1 spanner2 spanner3 - spanner
    nut0 nut1 nut2 - nut shed loc0 loc1 loc2 loc3 loc4 loc5 gate - location)
  (:init (at bob shed) (link shed loc0) (link loc0 loc1) (link loc1 loc2) (link loc2 loc3) (link loc3 loc4) (link loc4 loc5) (link loc5 gate) (at spanner0 loc1) (useable spanner0) (at spanner1 loc4) (useable spanner1) (at spanner2 loc4) (useable spanner2) (at spanner3 loc1) (useable spanner3) (at nut0 gate) (loose nut0) (at nut1 gate) (loose nut1) (at nut2 gate) (loose nut2))
  (:goal (and (tightened nut0) (tightened nut1) (tightened nut2))))
