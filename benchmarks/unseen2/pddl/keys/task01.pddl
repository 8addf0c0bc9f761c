(define (problem keys-2) (:domain keys)
  (:objects r0 r1 - room key0 key1 - key)
  (:init (at hall) (adj hall r0) (adj r0 hall) (adj r0 r1) (adj r1 r0) (locked r0) (opens key0 r0) (key-at key0 hall) (opens key1 r1) (key-at key1 r1))
  (:goal (and (done) (forall (?k - key) (exists (?r - room) (and (key-at ?k ?r) (not (= ?r hall))))) (key-at key0 r1))))
