//! The one entry for weights files: [`Weights::from_bytes`] reads the
//! shared header once ([`FileHeader`]), tells the family by its magic and
//! parses the rest with that family's reader. The UCI engine, the native
//! trainer and the browser worker all load networks here; adding a family
//! adds a variant here and a case in [`factory`](crate::search::factory).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::alphazero::net::{AZ_FORMAT, AzNet};
use crate::deepchess::format::FORMAT;
use crate::deepchess::network::Network;
use crate::file::{FileHeader, Format, Reader, WeightsError};
use crate::kernels::Kernel;
use crate::learned::net::{LEARNED_FORMAT, LearnedNet};

/// The formats a weights file may have: `.dcnn`, `.dcsn`, `.dcaz`.
pub const FORMATS: [Format; 3] = [FORMAT, LEARNED_FORMAT, AZ_FORMAT];

/// The network families.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// DeepChess's quantized network (`.dcnn`): a comparison head, a
    /// utility head, or both.
    DeepChess,
    /// A learned network (`.dcsn`), the other learners': Deep Pink, the DBN,
    /// NeuroChess.
    Learned,
    /// The AlphaZero reimplementation's policy-value network (`.dcaz`).
    AlphaZero,
}

impl Family {
    /// The file name extension: `dcnn`, `dcsn` or `dcaz`.
    pub fn extension(self) -> &'static str {
        match self {
            Family::DeepChess => "dcnn",
            Family::Learned => "dcsn",
            Family::AlphaZero => "dcaz",
        }
    }

    /// The canonical file name of a network of this family:
    /// `deepchess-<first 12 hex digits of the SHA-256 of its bytes>.<extension>`.
    pub fn file_name(self, bytes: &[u8]) -> String {
        crate::deepchess::format::file_name(bytes).replace(".dcnn", &format!(".{}", self.extension()))
    }

    /// A name for messages: `DeepChess (.dcnn)`, …
    pub fn describe(self) -> &'static str {
        match self {
            Family::DeepChess => "a DeepChess network (.dcnn)",
            Family::Learned => "a learner's network (.dcsn)",
            Family::AlphaZero => "an AlphaZero network (.dcaz)",
        }
    }

    /// The family of a file of `format`.
    fn of(format: Format) -> Family {
        if format == LEARNED_FORMAT {
            Family::Learned
        } else if format == AZ_FORMAT {
            Family::AlphaZero
        } else {
            Family::DeepChess
        }
    }
}

/// A network of any family, loaded from its file.
#[derive(Clone, Debug)]
pub enum Weights {
    /// A DeepChess network.
    DeepChess(Network),
    /// A learner's network.
    Learned(LearnedNet),
    /// The AlphaZero reimplementation's network.
    AlphaZero(AzNet),
}

impl Weights {
    /// Reads a weights file of any family. A file whose magic is none of
    /// [`FORMATS`] is [`WeightsError::BadMagic`], naming them; every other
    /// defect is the family reader's typed error.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        let header = FileHeader::read(&mut Reader::new(bytes), &FORMATS)?;
        Ok(match Family::of(header.format) {
            Family::DeepChess => Weights::DeepChess(Network::from_bytes(bytes)?),
            Family::Learned => Weights::Learned(LearnedNet::from_bytes(bytes)?),
            Family::AlphaZero => Weights::AlphaZero(AzNet::from_bytes(bytes)?),
        })
    }

    /// Which family this is.
    pub fn family(&self) -> Family {
        match self {
            Weights::DeepChess(_) => Family::DeepChess,
            Weights::Learned(_) => Family::Learned,
            Weights::AlphaZero(_) => Family::AlphaZero,
        }
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Weights::DeepChess(net) => net.to_bytes(),
            Weights::Learned(net) => net.to_bytes(),
            Weights::AlphaZero(net) => net.to_bytes(),
        }
    }

    /// The kernel the network runs on.
    pub fn kernel(&self) -> Kernel {
        match self {
            Weights::DeepChess(net) => net.kernel(),
            Weights::Learned(net) => net.kernel(),
            Weights::AlphaZero(net) => net.kernel(),
        }
    }

    /// What the network is, for `info string loaded network …`: its shape.
    pub fn summary(&self) -> String {
        match self {
            Weights::DeepChess(net) => format!("{}", net.shape()),
            Weights::Learned(net) => net.shape_name(),
            Weights::AlphaZero(net) => format!("AlphaZero {} blocks × {} filters", net.blocks(), net.filters()),
        }
    }

    /// The DeepChess network, or the family these weights are of instead.
    pub fn into_deepchess(self) -> Result<Network, Family> {
        match self {
            Weights::DeepChess(net) => Ok(net),
            other => Err(other.family()),
        }
    }

    /// The AlphaZero network, or the family these weights are of instead.
    pub fn into_alphazero(self) -> Result<AzNet, Family> {
        match self {
            Weights::AlphaZero(net) => Ok(net),
            other => Err(other.family()),
        }
    }

    /// The DeepChess network, if this is one.
    pub fn deepchess(&self) -> Option<&Network> {
        match self {
            Weights::DeepChess(net) => Some(net),
            _ => None,
        }
    }

    /// The learner's network, if this is one.
    pub fn learned(&self) -> Option<&LearnedNet> {
        match self {
            Weights::Learned(net) => Some(net),
            _ => None,
        }
    }

    /// The AlphaZero network, if this is one.
    pub fn alphazero(&self) -> Option<&AzNet> {
        match self {
            Weights::AlphaZero(net) => Some(net),
            _ => None,
        }
    }
}

impl From<Network> for Weights {
    fn from(net: Network) -> Weights {
        Weights::DeepChess(net)
    }
}

impl From<LearnedNet> for Weights {
    fn from(net: LearnedNet) -> Weights {
        Weights::Learned(net)
    }
}

impl From<AzNet> for Weights {
    fn from(net: AzNet) -> Weights {
        Weights::AlphaZero(net)
    }
}
