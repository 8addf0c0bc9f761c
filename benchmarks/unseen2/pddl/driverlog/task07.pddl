(define (problem driverlog-6-5) (:domain driverlog)
  (:objects driver0 driver1 driver2 - driver
    truck0 truck1 - truck
    package0 package1 package2 package3 package4 - obj
    s0 s1 s2 s3 s4 s5 p1-0 p1-4 p2-0 p2-1 p3-1 p3-2 p4-0 p5-0 - location)
  (:init (link s1 s0) (link s0 s1) (path s1 p1-0) (path p1-0 s1) (path s0 p1-0) (path p1-0 s0) (link s1 s4) (link s4 s1) (path s1 p1-4) (path p1-4 s1) (path s4 p1-4) (path p1-4 s4) (link s2 s0) (link s0 s2) (path s2 p2-0) (path p2-0 s2) (path s0 p2-0) (path p2-0 s0) (link s2 s1) (link s1 s2) (path s2 p2-1) (path p2-1 s2) (path s1 p2-1) (path p2-1 s1) (link s3 s1) (link s1 s3) (path s3 p3-1) (path p3-1 s3) (path s1 p3-1) (path p3-1 s1) (link s3 s2) (link s2 s3) (path s3 p3-2) (path p3-2 s3) (path s2 p3-2) (path p3-2 s2) (link s4 s0) (link s0 s4) (path s4 p4-0) (path p4-0 s4) (path s0 p4-0) (path p4-0 s0) (link s5 s0) (link s0 s5) (path s5 p5-0) (path p5-0 s5) (path s0 p5-0) (path p5-0 s0) (at driver0 s2) (at driver1 s3) (at driver2 s1) (at truck0 s5) (empty truck0) (at truck1 s3) (empty truck1) (at package0 s4) (at package1 s5) (at package2 s1) (at package3 s4) (at package4 s5))
  (:goal (and (at package0 s5) (at package1 s0) (at package2 s4) (at package3 s2) (at package4 s4) (at driver0 s5))))
