(define (problem spanner-4-3-2) (:domain spanner)
  (:objects bob - man spanner0 spanner1 spanner2 - spanner
    nut0 nut1 - nut shed loc0 loc1 loc2 loc3 gate - location)
  (:init (at bob shed) (link shed loc0) (link loc0 loc1) (link loc1 loc2) (link loc2 loc3) (link loc3 gate) (at spanner0 loc1) (useable spanner0) (at spanner1 loc0) (useable spanner1) (at spanner2 loc2) (useable spanner2) (at nut0 gate) (loose nut0) (at nut1 gate) (loose nut1))
  (:goal (and (tightened nut0) (tightened nut1))))
