(define (problem hierarchy-7-5) (:domain hierarchy)
  (:objects truck0 - truck p0 p1 p2 p3 p4 p5 p6 - place
    parcel0 parcel1 parcel2 parcel3 parcel4 - parcel)
  (:init (at van0 depot) (at truck0 depot) (wide depot) (road depot p0) (road p0 depot) (road p0 p1) (road p1 p0) (road p1 p2) (road p2 p1) (road p2 p3) (road p3 p2) (road p3 p4) (road p4 p3) (road p4 p5) (road p5 p4) (road p5 p6) (road p6 p5) (wide p2) (wide p3) (at parcel0 p3) (at parcel1 p2) (at parcel2 depot) (at parcel3 p1) (at parcel4 p5))
  (:goal (and (at parcel0 p1) (at parcel1 p3) (at parcel2 p3) (at parcel3 p2) (at parcel4 p6))))
