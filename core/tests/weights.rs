//! The weights file: round trips, and a typed error (never a panic) for every
//! kind of damage.

use deepchess_core::deepchess::format::{self, MAGIC, VERSION};
use deepchess_core::learned::{InputKind, OutputKind};
use deepchess_core::{Family, Network, Shape, ShapeError, Weights, WeightsError, arch, seeded};
use rand::{Rng, SeedableRng, rngs::SmallRng};

fn distilled_bytes() -> Vec<u8> {
    let mut net = seeded::network(&Shape::distilled(), 1.0, 7);
    net.description = "test network, ünïcode".into();
    net.to_bytes()
}

/// Header fields at fixed offsets: magic 0, version 4, hash 8, tower count 12.
const HASH: usize = 8;

#[test]
fn round_trip_is_byte_exact() {
    for shape in [Shape::distilled(), Shape::full()] {
        let bytes = seeded::network(&shape, 1.0, 3).to_bytes();
        let net = Network::from_bytes(&bytes).unwrap();
        assert_eq!(net.shape(), &shape);
        assert_eq!(net.to_bytes(), bytes);
    }
    let net = Network::from_bytes(&distilled_bytes()).unwrap();
    assert_eq!(net.description(), "test network, ünïcode");
}

#[test]
fn distilled_file_size_is_the_sum_of_its_tensors() {
    // Magic, version, hash, the widths, the utility flag, the description.
    let header = 4 + 4 + 4 + (4 + 4 * 4) + (4 + 4 * 4) + 4 + 4 + "test network, ünïcode".len();
    let first = 2 * 100 + 2 * 773 * 100;
    let dense = |i: usize, o: usize| 4 * o + i * o;
    let rest = dense(100, 100) * 2 + dense(200, 100) + dense(100, 100) + dense(100, 2);
    assert_eq!(distilled_bytes().len(), header + first + rest); // about 207 KB
}

#[test]
fn every_truncation_is_a_typed_error() {
    let bytes = distilled_bytes();
    // Every length through the header and the start of the first layer, then
    // a stride through the tensors, and the last bytes.
    let lengths = (0..300).chain((300..bytes.len()).step_by(997)).chain(bytes.len() - 10..bytes.len());
    for len in lengths {
        match Network::from_bytes(&bytes[..len]) {
            Err(WeightsError::Truncated { len: file_len, .. }) => assert_eq!(file_len, len),
            other => panic!("truncated to {len}: {other:?}"),
        }
    }
}

#[test]
fn wrong_magic_version_hash() {
    let bytes = distilled_bytes();

    let mut bad = bytes.clone();
    bad[..4].copy_from_slice(b"NNUE");
    assert_eq!(
        Network::from_bytes(&bad).unwrap_err(),
        WeightsError::BadMagic { found: *b"NNUE", accepted: &[format::FORMAT] }
    );

    let mut bad = bytes.clone();
    bad[4..8].copy_from_slice(&(VERSION + 1).to_le_bytes());
    assert_eq!(
        Network::from_bytes(&bad).unwrap_err(),
        WeightsError::UnsupportedVersion { found: VERSION + 1, supported: VERSION }
    );

    let mut bad = bytes.clone();
    bad[HASH] ^= 1;
    let found = u32::from_le_bytes(bad[HASH..HASH + 4].try_into().unwrap());
    assert_eq!(
        Network::from_bytes(&bad).unwrap_err(),
        WeightsError::ArchHashMismatch { found, expected: arch::DISTILLED_HASH }
    );
}

#[test]
fn sizes_that_do_not_match() {
    let bytes = distilled_bytes();
    // Tower widths start at offset 16 (after the count at 12): 773, 100, 100, 100.
    let with_width = |offset: usize, width: u32| {
        let mut bad = bytes.clone();
        bad[offset..offset + 4].copy_from_slice(&width.to_le_bytes());
        bad
    };
    // A changed width, hash untouched: the hash no longer matches.
    assert!(matches!(Network::from_bytes(&with_width(20, 101)).unwrap_err(), WeightsError::ArchHashMismatch { .. }));
    // Not a DeepChess shape, even with a matching hash.
    let mut bad = with_width(16, 772);
    bad[HASH..HASH + 4].copy_from_slice(&arch::arch_hash(&[772, 100, 100, 100], &arch::DISTILLED_HEAD).to_le_bytes());
    assert_eq!(Network::from_bytes(&bad).unwrap_err(), WeightsError::BadShape(ShapeError::WrongInputs { found: 772 }));
    // An absurd layer count is refused before anything is allocated.
    let mut bad = bytes.clone();
    bad[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(Network::from_bytes(&bad).unwrap_err(), WeightsError::BadShape(ShapeError::TooManyLayers { .. })));
}

#[test]
fn trailing_bytes_and_bad_description() {
    let mut bytes = distilled_bytes();
    bytes.extend_from_slice(&[0, 0, 0]);
    assert_eq!(Network::from_bytes(&bytes).unwrap_err(), WeightsError::TrailingBytes { extra: 3 });

    let bytes = distilled_bytes();
    // The description starts after the widths and the utility flag:
    // 12 + 4 + 4*4 + 4 + 4*4 + 4 = 56, its length first.
    let start = 56 + 4;
    assert_eq!(&bytes[start..start + 4], b"test");
    let mut bad = bytes.clone();
    bad[start] = 0xff;
    assert_eq!(Network::from_bytes(&bad).unwrap_err(), WeightsError::BadDescription);
}

#[test]
fn shape_errors() {
    assert_eq!(Shape::new(&[773], &[2, 2]), Err(ShapeError::TooFewLayers));
    assert_eq!(Shape::new(&[773, 0, 1], &[2, 2]), Err(ShapeError::BadWidth { width: 0 }));
    assert_eq!(Shape::new(&[773, 2000, 1], &[2, 2]), Err(ShapeError::BadWidth { width: 2000 }));
    assert_eq!(Shape::new(&[773, 200], &[400, 2]), Err(ShapeError::EmbeddingTooWide { width: 200 }));
    assert_eq!(
        Shape::new(&[773, 100], &[100, 2]),
        Err(ShapeError::HeadInputMismatch { head_input: 100, embedding: 100 })
    );
    assert_eq!(Shape::new(&[773, 100], &[200, 3]), Err(ShapeError::WrongOutputs { found: 3 }));
    assert_eq!(Shape::full().to_string(), "773-600-400-200-100 + 200-400-200-100-2");
}

#[test]
fn random_damage_never_panics() {
    let bytes = distilled_bytes();
    let mut rng = SmallRng::seed_from_u64(9);
    for _ in 0..3_000 {
        let mut bad = bytes.clone();
        for _ in 0..rng.random_range(1..4) {
            // Mostly the header, where damage changes how the rest is read.
            let at = if rng.random_bool(0.8) { rng.random_range(0..80) } else { rng.random_range(0..bad.len()) };
            bad[at] = rng.random();
        }
        if rng.random_bool(0.3) {
            bad.truncate(rng.random_range(0..bad.len()));
        }
        let _ = Network::from_bytes(&bad);
    }
    assert!(Network::from_bytes(&[]).is_err());
    assert!(Network::from_bytes(&MAGIC).is_err());
}

#[test]
fn error_messages_are_clear() {
    let err = Network::from_bytes(&distilled_bytes()[..10]).unwrap_err();
    assert_eq!(err.to_string(), "weights file truncated: 4 bytes needed at offset 8, but the file has 10");
    let err = Network::from_bytes(b"PK\x03\x04rest").unwrap_err();
    assert!(err.to_string().starts_with("not a DeepChess weights file"), "{err}");
}

#[test]
fn file_name_is_the_content_hash() {
    let bytes = distilled_bytes();
    let name = format::file_name(&bytes);
    assert!(name.starts_with("deepchess-") && name.ends_with(".dcnn") && name.len() == 10 + 12 + 5, "{name}");
    assert_ne!(name, format::file_name(&bytes[1..]));
}

#[test]
fn float_network_file_round_trip() {
    use deepchess_core::FloatNetwork;
    for shape in [Shape::distilled(), Shape::full()] {
        let mut net = seeded::network(&shape, 1.0, 8);
        net.description = "checkpoint".into();
        let bytes = net.to_float_bytes();
        assert_eq!(FloatNetwork::from_float_bytes(&bytes).unwrap(), net);
        assert!(matches!(
            FloatNetwork::from_float_bytes(&bytes[..bytes.len() - 1]),
            Err(WeightsError::Truncated { .. })
        ));
        // A quantized file is not a float file, and the other way round.
        assert!(matches!(FloatNetwork::from_float_bytes(&net.to_bytes()), Err(WeightsError::BadMagic { .. })));
        assert!(matches!(Network::from_bytes(&bytes), Err(WeightsError::BadMagic { .. })));
    }
}

#[test]
fn utility_heads_round_trip_and_version_1_still_loads() {
    // Both heads, and a utility head alone.
    let both = Shape::distilled().with_utility(true).unwrap();
    let alone = Shape::with_heads(&arch::DISTILLED_TOWER, &[], true).unwrap();
    for shape in [both.clone(), alone] {
        let float = seeded::network(&shape, 1.0, 9);
        let bytes = float.to_bytes();
        let net = Network::from_bytes(&bytes).unwrap();
        assert_eq!(net.shape(), &shape);
        assert!(net.has_utility());
        assert_eq!(net.has_comparison(), shape.has_comparison());
        assert_eq!(net.cp_scale(), Some(arch::DEFAULT_CP_SCALE));
        assert_eq!(net.to_bytes(), bytes);
        let reread = deepchess_core::FloatNetwork::from_float_bytes(&float.to_float_bytes()).unwrap();
        assert_eq!(reread, float);
        // A network without a comparison head prefers neither side.
        let e = net.embed_position(&shakmaty::Chess::default());
        if !shape.has_comparison() {
            assert_eq!(net.compare_logit(&e, &e), 0);
        }
    }
    assert_ne!(both.hash(), Shape::distilled().hash());

    // A version 1 file (the format before utility heads): no utility field.
    let mut v1 = distilled_bytes();
    v1[4..8].copy_from_slice(&1u32.to_le_bytes());
    let tower_and_head = 12 + (4 + 4 * 4) + (4 + 4 * 4);
    v1.drain(tower_and_head..tower_and_head + 4);
    let net = Network::from_bytes(&v1).unwrap();
    assert!(!net.has_utility() && net.has_comparison());
    assert_eq!(net.to_bytes(), distilled_bytes());
    // The shipped networks are version 1 or 2 files; each loads.
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../weights")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "dcnn") {
            let bytes = std::fs::read(&path).unwrap();
            Network::from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
}

#[test]
fn output_buckets_round_trip_and_plain_files_stay_version_2() {
    let plain = Shape::with_heads(&[773, 64, 32], &[], true).unwrap();
    let flag = 12 + (4 + 3 * 4) + 4;
    for shape in [plain.with_buckets(8).unwrap(), Shape::perspective(&[773, 64, 32]).unwrap().with_buckets(4).unwrap()]
    {
        let float = seeded::network(&shape, 1.0, 9);
        let bytes = float.to_bytes();
        assert_eq!(bytes[4..8], 3u32.to_le_bytes(), "a network with output buckets is a version 3 file");
        assert_eq!(bytes[flag + 4..flag + 8], (shape.buckets() as u32).to_le_bytes());
        let net = Network::from_bytes(&bytes).unwrap();
        assert_eq!(net.shape(), &shape);
        assert_eq!(net.utility_layer().unwrap().outputs(), shape.buckets());
        assert_eq!(net.to_bytes(), bytes);
        let reread = deepchess_core::FloatNetwork::from_float_bytes(&float.to_float_bytes()).unwrap();
        assert_eq!(reread, float);
        // A bucket count out of range is a shape error; another in range changes the hash.
        for (count, expected) in [
            (0u32, Some(ShapeError::BadBuckets { buckets: 0 })),
            (17, Some(ShapeError::BadBuckets { buckets: 17 })),
            (2, None),
        ] {
            let mut bad = bytes.clone();
            bad[flag + 4..flag + 8].copy_from_slice(&count.to_le_bytes());
            match expected {
                Some(err) => assert_eq!(Network::from_bytes(&bad).unwrap_err(), WeightsError::BadShape(err)),
                None => assert!(matches!(Network::from_bytes(&bad), Err(WeightsError::ArchHashMismatch { .. }))),
            }
        }
        // Cut short inside the field: a typed error, never a panic.
        assert!(Network::from_bytes(&bytes[..flag + 6]).is_err());
    }
    // One bucket is the plain head: the same shape, hash and version 2 bytes as before buckets.
    assert_eq!(plain.with_buckets(1).unwrap(), plain);
    let bytes = seeded::network(&plain, 1.0, 9).to_bytes();
    assert_eq!(bytes[4..8], 2u32.to_le_bytes());
    assert_eq!(Network::from_bytes(&bytes).unwrap().shape().buckets(), 1);
    assert_eq!(plain.hash(), arch::arch_hash_with_utility(&[773, 64, 32], &[], true));
}

#[test]
fn bad_utility_fields_are_typed_errors() {
    let shape = Shape::distilled().with_utility(true).unwrap();
    let bytes = seeded::network(&shape, 1.0, 9).to_bytes();
    let flag = 12 + (4 + 4 * 4) + (4 + 4 * 4);
    let mut bad = bytes.clone();
    bad[flag..flag + 4].copy_from_slice(&7u32.to_le_bytes());
    assert_eq!(
        Network::from_bytes(&bad).unwrap_err(),
        WeightsError::BadUtility { reason: deepchess_core::UtilityDefect::Flag(7) }
    );
    for scale in [f32::NAN, -1.0, 0.0, f32::INFINITY, 1e9] {
        let mut bad = bytes.clone();
        let end = bad.len();
        bad[end - 4..].copy_from_slice(&scale.to_le_bytes());
        assert!(
            matches!(Network::from_bytes(&bad), Err(WeightsError::BadUtility { .. })),
            "scale {scale} was accepted"
        );
    }
    // A network with no head at all is a shape error.
    assert_eq!(Shape::with_heads(&arch::DISTILLED_TOWER, &[], false), Err(ShapeError::NoHead));
    // The utility flag set on a file without one changes the hash: refused.
    let mut bad = distilled_bytes();
    bad[flag..flag + 4].copy_from_slice(&1u32.to_le_bytes());
    assert!(matches!(Network::from_bytes(&bad), Err(WeightsError::ArchHashMismatch { .. })));
}

/// One entry reads every family, told by the magic, and names what it
/// found and what it accepts when the magic is none of them.
#[test]
fn any_weights_file_loads_through_one_entry() {
    let dcnn = distilled_bytes();
    let dcsn = seeded::learned_net(InputKind::SideToMove768, OutputKind::Tanh, 3).to_bytes();
    let dcaz = seeded::az_net(1, 8, 3).to_bytes();
    for (bytes, family, extension) in
        [(&dcnn, Family::DeepChess, "dcnn"), (&dcsn, Family::Learned, "dcsn"), (&dcaz, Family::AlphaZero, "dcaz")]
    {
        let weights = Weights::from_bytes(bytes).expect("loads");
        assert_eq!(weights.family(), family);
        assert_eq!(family.extension(), extension);
        assert_eq!(&weights.to_bytes(), bytes, "{family:?} round trip");
    }

    let mut bad = dcsn.clone();
    bad[..4].copy_from_slice(b"NNUE");
    let err = Weights::from_bytes(&bad).unwrap_err();
    assert!(matches!(err, WeightsError::BadMagic { found, accepted } if found == *b"NNUE" && accepted.len() == 3));
    assert_eq!(
        err.to_string(),
        "not a DeepChess weights file (magic \"NNUE\", expected \"DCNN\", \"DCSN\" or \"DCAZ\")"
    );
    bad[..4].copy_from_slice(&[0, 159, 146, 150]);
    assert!(Weights::from_bytes(&bad).unwrap_err().to_string().contains("magic [00, 9f, 92, 96]"));

    // A family's own defects are that family's typed errors.
    let mut damaged = dcaz.clone();
    damaged.truncate(dcaz.len() - 1);
    assert!(matches!(Weights::from_bytes(&damaged), Err(WeightsError::Truncated { .. })));
    assert!(matches!(Weights::from_bytes(b"DC"), Err(WeightsError::Truncated { .. })));
}
