;; SIMD kernels of the dense searches (compact int8 and sign bits; exact float32), compiled to WebAssembly by scripts/build-kernels.mjs (wabt).
;; Every pointer and stride is in bytes; strides are multiples of 16 (rows are zero-padded), so each loop
;; steps whole v128s (int8 and float32 rows: four per step, stride a multiple of 64) and has no remainder. The build fills in the memory import: shared or plain.
(module
  (import "env" "memory" @MEMORY@)

  ;; out[r] (f32) = scales[r] × Σ_j codes[r][j] · query[j] for `rows` rows of int8 codes and an int16 query; the
  ;; caller keeps |Σ| below 2^31. Returns the largest out[r] (-inf for no rows), which lets the caller skip a block
  ;; none of whose rows can enter its top-k.
  (func (export "dot_i8") (param $codes i32) (param $query i32) (param $stride i32) (param $rows i32)
      (param $scales i32) (param $out i32) (result f32)
    (local $end i32) (local $j i32) (local $q i32) (local $acc v128) (local $v v128) (local $score f32) (local $max f32)
    (local.set $max (f32.const -inf))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 2))))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $j (i32.const 0))
        (local.set $q (local.get $query))
        (loop $col
          @DOT16@ 0
          @DOT16@ 16
          @DOT16@ 32
          @DOT16@ 48
          (local.set $j (i32.add (local.get $j) (i32.const 64)))
          (local.set $q (i32.add (local.get $q) (i32.const 128)))
          (br_if $col (i32.lt_u (local.get $j) (local.get $stride))))
        (local.set $score (f32.mul (f32.load (local.get $scales)) (f32.convert_i32_s
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))))
        (f32.store (local.get $out) (local.get $score))
        (local.set $max (f32.max (local.get $max) (local.get $score)))
        (local.set $codes (i32.add (local.get $codes) (local.get $stride)))
        (local.set $scales (i32.add (local.get $scales) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $row)))
    (local.get $max))

;; out[r] (f32) = Σ_j rows[r][j] · query[j] for `rows` float32 rows of `stride` bytes (a multiple of 64, zero
  ;; padded): four f32x4 accumulators over 16-float steps (lane l of accumulator a sums j ≡ 4a + l mod 16), combined
  ;; as (a0 + a1) + (a2 + a3), then lanes as (l0 + l1) + (l2 + l3). Returns the largest out[r] (-inf for no rows).
  (func (export "dot_f32") (param $rows i32) (param $query i32) (param $stride i32) (param $count i32) (param $out i32)
      (result f32)
    (local $end i32) (local $j i32) (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $score f32) (local $max f32)
    (local.set $max (f32.const -inf))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $a1 (v128.const i32x4 0 0 0 0))
        (local.set $a2 (v128.const i32x4 0 0 0 0))
        (local.set $a3 (v128.const i32x4 0 0 0 0))
        (local.set $j (i32.const 0))
        (loop $col
          @DOTF32@ $a0 0
          @DOTF32@ $a1 16
          @DOTF32@ $a2 32
          @DOTF32@ $a3 48
          (local.set $j (i32.add (local.get $j) (i32.const 64)))
          (br_if $col (i32.lt_u (local.get $j) (local.get $stride))))
        (local.set $a0 (f32x4.add (f32x4.add (local.get $a0) (local.get $a1)) (f32x4.add (local.get $a2) (local.get $a3))))
        (local.set $score
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $a0)) (f32x4.extract_lane 1 (local.get $a0)))
            (f32.add (f32x4.extract_lane 2 (local.get $a0)) (f32x4.extract_lane 3 (local.get $a0)))))
        (f32.store (local.get $out) (local.get $score))
        (local.set $max (f32.max (local.get $max) (local.get $score)))
        (local.set $rows (i32.add (local.get $rows) (local.get $stride)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $row)))
    (local.get $max))

  ;; out[r] = popcount(codes[r] xor query): Hamming distance of `rows` sign-bit rows. Returns the smallest.
  (func (export "hamming") (param $codes i32) (param $query i32) (param $stride i32) (param $rows i32) (param $out i32)
      (result i32)
    (local $end i32) (local $j i32) (local $acc v128) (local $d i32) (local $min i32)
    (local.set $min (i32.const 0x7fffffff))
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 2))))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $j (i32.const 0))
        (loop $col
          (local.set $acc (i32x4.add (local.get $acc)
            (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt
              (v128.xor (v128.load (i32.add (local.get $codes) (local.get $j)))
                        (v128.load (i32.add (local.get $query) (local.get $j)))))))))
          (local.set $j (i32.add (local.get $j) (i32.const 16)))
          (br_if $col (i32.lt_u (local.get $j) (local.get $stride))))
        (local.set $d
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (i32.store (local.get $out) (local.get $d))
        (if (i32.lt_s (local.get $d) (local.get $min)) (then (local.set $min (local.get $d))))
        (local.set $codes (i32.add (local.get $codes) (local.get $stride)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $row)))
    (local.get $min))

  ;; The memory-bandwidth floor: xor of every v128 in [ptr, ptr + bytes), four loads per step; the result only
  ;; (the xor of all 32-bit words) keeps the loads from being optimised away. `bytes` must be a multiple of 64.
  (func (export "scan_floor") (param $ptr i32) (param $bytes i32) (result i32)
    (local $end i32) (local $a v128) (local $b v128) (local $c v128) (local $d v128)
    (local.set $end (i32.add (local.get $ptr) (local.get $bytes)))
    (block $done
      (loop $step
        (br_if $done (i32.ge_u (local.get $ptr) (local.get $end)))
        (local.set $a (v128.xor (local.get $a) (v128.load (local.get $ptr))))
        (local.set $b (v128.xor (local.get $b) (v128.load offset=16 (local.get $ptr))))
        (local.set $c (v128.xor (local.get $c) (v128.load offset=32 (local.get $ptr))))
        (local.set $d (v128.xor (local.get $d) (v128.load offset=48 (local.get $ptr))))
        (local.set $ptr (i32.add (local.get $ptr) (i32.const 64)))
        (br $step)))
    (local.set $a (v128.xor (v128.xor (local.get $a) (local.get $b)) (v128.xor (local.get $c) (local.get $d))))
    (i32.xor
      (i32.xor (i32x4.extract_lane 0 (local.get $a)) (i32x4.extract_lane 1 (local.get $a)))
      (i32.xor (i32x4.extract_lane 2 (local.get $a)) (i32x4.extract_lane 3 (local.get $a))))))
