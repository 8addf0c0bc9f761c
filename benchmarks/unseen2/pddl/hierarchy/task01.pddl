(define (problem hierarchy-3-2) (:domain hierarchy)
  (:objects truck0 - truck p0 p1 p2 - place
    parcel0 parcel1 - parcel)
  (:init (at van0 depot) (at truck0 depot) (wide depot) (road depot p0) (road p0 depot) (road p0 p1) (road p1 p0) (road p1 p2) (road p2 p1) (wide p2) (at parcel0 p1) (at parcel1 p2))
  (:goal (and (at parcel0 p2) (at parcel1 p0))))
