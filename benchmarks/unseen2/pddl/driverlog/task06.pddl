(define (problem driverlog-6-4) (:domain driverlog)
  (:objects driver0 driver1 - driver
    truck0 truck1 - truck
    package0 package1 package2 package3 - obj
    s0 s1 s2 s3 s4 s5 p1-0 p2-1 p2-3 p3-2 p4-0 p5-3 - location)
  (:init (link s1 s0) (link s0 s1) (path s1 p1-0) (path p1-0 s1) (path s0 p1-0) (path p1-0 s0) (link s2 s1) (link s1 s2) (path s2 p2-1) (path p2-1 s2) (path s1 p2-1) (path p2-1 s1) (link s2 s3) (link s3 s2) (path s2 p2-3) (path p2-3 s2) (path s3 p2-3) (path p2-3 s3) (link s3 s2) (link s2 s3) (path s3 p3-2) (path p3-2 s3) (path s2 p3-2) (path p3-2 s2) (link s4 s0) (link s0 s4) (path s4 p4-0) (path p4-0 s4) (path s0 p4-0) (path p4-0 s0) (link s5 s3) (link s3 s5) (path s5 p5-3) (path p5-3 s5) (path s3 p5-3) (path p5-3 s3) (at driver0 s1) (at driver1 s3) (at truck0 s4) (empty truck0) (at truck1 s0) (empty truck1) (at package0 s4) (at package1 s0) (at package2 s3) (at package3 s1))
  (:goal (and (at package0 s1) (at package1 s1) (at package2 s2) (at package3 s3) (at driver0 s1))))
