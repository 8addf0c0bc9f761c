(define (domain keys)
  (:requirements :typing :equality :disjunctive-preconditions :existential-preconditions
                 :universal-preconditions :negative-preconditions)
  (:types room key)
  (:constants hall - room)
  (:predicates (at ?r - room) (adj ?a ?b - room) (locked ?r - room) (opens ?k - key ?r - room)
    (key-at ?k - key ?r - room) (holding ?k - key) (done))
  (:action walk
    :parameters (?a ?b - room)
    :precondition (and (at ?a) (adj ?a ?b)
                       (or (not (locked ?b))
                           (exists (?k - key) (and (holding ?k) (opens ?k ?b)))))
    :effect (and (at ?b) (not (at ?a))))
  (:action take
    :parameters (?k - key ?r - room)
    :precondition (and (at ?r) (key-at ?k ?r))
    :effect (and (holding ?k) (not (key-at ?k ?r))))
  (:action drop
    :parameters (?k - key ?r - room)
    :precondition (and (at ?r) (holding ?k))
    :effect (and (key-at ?k ?r) (not (holding ?k))))
  (:action finish
    :parameters ()
    :precondition (and (at hall) (forall (?k - key) (not (holding ?k))))
    :effect (done)))
