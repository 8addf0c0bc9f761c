(define (problem keys-4) (:domain keys)
  (:objects r0 r1 r2 r3 - room key0 key1 key2 key3 - key)
  (:init (at hall) (adj hall r0) (adj r0 hall) (adj r0 r1) (adj r1 r0) (adj r1 r2) (adj r2 r1) (adj r2 r3) (adj r3 r2) (locked r0) (opens key0 r0) (key-at key0 hall) (locked r1) (opens key1 r1) (key-at key1 hall) (locked r2) (opens key2 r2) (key-at key2 r0) (opens key3 r3) (key-at key3 r3))
  (:goal (and (done) (forall (?k - key) (exists (?r - room) (and (key-at ?k ?r) (not (= ?r hall))))) (key-at key0 r3))))
