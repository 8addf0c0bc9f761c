(define (domain nomystery)
  (:requirements :strips :typing)
  (:types location fuellevel locatable - object package truck - locatable)
  (:predicates (connected ?l1 ?l2 - location) (at ?o - locatable ?l - location)
    (in ?p - package ?t - truck) (fuel ?t - truck ?level - fuellevel)
    (fuelcost ?level - fuellevel ?l1 ?l2 - location) (sum ?a ?b ?c - fuellevel))
  (:action load
    :parameters (?p - package ?t - truck ?l - location)
    :precondition (and (at ?t ?l) (at ?p ?l))
    :effect (and (not (at ?p ?l)) (in ?p ?t)))
  (:action unload
    :parameters (?p - package ?t - truck ?l - location)
    :precondition (and (at ?t ?l) (in ?p ?t))
    :effect (and (at ?p ?l) (not (in ?p ?t))))
  (:action drive
    :parameters (?t - truck ?l1 ?l2 - location ?post ?delta ?pre - fuellevel)
    :precondition (and (connected ?l1 ?l2) (fuelcost ?delta ?l1 ?l2) (fuel ?t ?pre)
                       (sum ?post ?delta ?pre) (at ?t ?l1))
    :effect (and (not (at ?t ?l1)) (at ?t ?l2) (not (fuel ?t ?pre)) (fuel ?t ?post))))
