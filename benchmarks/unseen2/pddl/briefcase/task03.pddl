(define (problem briefcase-5-4) (:domain briefcase)
  (:objects obj0 obj1 obj2 obj3 - portable
    loc0 loc1 loc2 loc3 loc4 - location)
  (:init (is-at loc0) (at obj0 loc0) (at obj1 loc2) (at obj2 loc2) (at obj3 loc4))
  (:goal (and (is-at loc0) (at obj0 loc4) (not (in obj0)) (at obj1 loc1) (not (in obj1)) (at obj2 loc4) (not (in obj2)) (at obj3 loc1) (not (in obj3)))))
