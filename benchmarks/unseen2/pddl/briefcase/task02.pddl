(define (problem briefcase-4-3) (:domain briefcase)
  (:objects obj0 obj1 obj2 - portable
    loc0 loc1 loc2 loc3 - location)
  (:init (is-at loc0) (at obj0 loc0) (at obj1 loc0) (at obj2 loc3))
  (:goal (and (is-at loc1) (at obj0 loc1) (not (in obj0)) (at obj1 loc1) (not (in obj1)) (at obj2 loc1) (not (in obj2)))))
