(define (problem hierarchy-5-3) (:domain hierarchy)
  (:objects truck0 - truck p0 p1 p2 p3 p4 - place
    parcel0 parcel1 parcel2 - parcel)
  (:init (at van0 depot) (at truck0 depot) (wide depot) (road depot p0) (road p0 depot) (road p0 p1) (road p1 p0) (road p1 p2) (road p2 p1) (road p2 p3) (road p3 p2) (road p3 p4) (road p4 p3) (wide p0) (wide p3) (wide p4) (at parcel0 p2) (at parcel1 p4) (at parcel2 p0))
  (:goal (and (at parcel0 p4) (at parcel1 p2) (at parcel2 depot))))
