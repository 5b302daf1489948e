//! Integration tests of reference-db: the builder over the hand-made CSV
//! fixtures (`fixtures/pokeapi`), lookups and suggestions over the result,
//! and checks over the full PokeAPI data ([`full_data`]).

mod builder;
mod full_data;
mod lookup;
mod support;
