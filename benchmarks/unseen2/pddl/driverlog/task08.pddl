(define (problem driverlog-7-5) (:domain driverlog)
  (:objects driver0 driver1 driver2 - driver
    truck0 truck1 truck2 - truck
    package0 package1 package2 package3 package4 - obj
    s0 s1 s2 s3 s4 s5 s6 p0-2 p1-0 p2-0 p3-1 p4-0 p4-1 p5-0 p6-4 - location)
  (:init (link s0 s2) (link s2 s0) (path s0 p0-2) (path p0-2 s0) (path s2 p0-2) (path p0-2 s2) (link s1 s0) (link s0 s1) (path s1 p1-0) (path p1-0 s1) (path s0 p1-0) (path p1-0 s0) (link s2 s0) (link s0 s2) (path s2 p2-0) (path p2-0 s2) (path s0 p2-0) (path p2-0 s0) (link s3 s1) (link s1 s3) (path s3 p3-1) (path p3-1 s3) (path s1 p3-1) (path p3-1 s1) (link s4 s0) (link s0 s4) (path s4 p4-0) (path p4-0 s4) (path s0 p4-0) (path p4-0 s0) (link s4 s1) (link s1 s4) (path s4 p4-1) (path p4-1 s4) (path s1 p4-1) (path p4-1 s1) (link s5 s0) (link s0 s5) (path s5 p5-0) (path p5-0 s5) (path s0 p5-0) (path p5-0 s0) (link s6 s4) (link s4 s6) (path s6 p6-4) (path p6-4 s6) (path s4 p6-4) (path p6-4 s4) (at driver0 s0) (at driver1 s0) (at driver2 s3) (at truck0 s3) (empty truck0) (at truck1 s0) (empty truck1) (at truck2 s1) (empty truck2) (at package0 s0) (at package1 s3) (at package2 s6) (at package3 s0) (at package4 s5))
  (:goal (and (at package0 s4) (at package1 s0) (at package2 s4) (at package3 s1) (at package4 s6) (at driver0 s4))))
