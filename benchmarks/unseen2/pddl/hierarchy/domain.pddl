(define (domain hierarchy)
  (:requirements :strips :typing)
  (:types truck van - vehicle vehicle parcel - thing thing place - object)
  (:constants depot - place van0 - van)
  (:predicates (at ?t - thing ?p - place) (in ?x - parcel ?v - vehicle) (road ?a ?b - place)
    (ready) (wide ?p - place))
  (:action start
    :parameters ()
    :precondition (at van0 depot)
    :effect (ready))
  (:action drive-van
    :parameters (?v - van ?a ?b - place)
    :precondition (and (ready) (at ?v ?a) (road ?a ?b))
    :effect (and (at ?v ?b) (not (at ?v ?a))))
  (:action drive-truck
    :parameters (?v - truck ?a ?b - place)
    :precondition (and (ready) (at ?v ?a) (road ?a ?b) (wide ?b))
    :effect (and (at ?v ?b) (not (at ?v ?a))))
  (:action load
    :parameters (?x - parcel ?v - vehicle ?p - place)
    :precondition (and (at ?x ?p) (at ?v ?p))
    :effect (and (in ?x ?v) (not (at ?x ?p))))
  (:action unload
    :parameters (?x - parcel ?v - vehicle ?p - place)
    :precondition (and (in ?x ?v) (at ?v ?p))
    :effect (and (at ?x ?p) (not (in ?x ?v)))))
