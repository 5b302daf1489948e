//! "Did you mean" suggestions.
//!
//! The measure is strsim's Sørensen–Dice coefficient over character bigrams
//! ([`strsim::sorensen_dice`]), computed between the query's lookup key
//! ([`crate::lookup_key`]) and each record's slug. At most
//! [`MAX_SUGGESTIONS`] suggestions are returned, best first (ties by slug),
//! and none scores under [`SUGGESTION_FLOOR`].
//!
//! Scoring every slug with strsim directly costs about a microsecond each
//! (it builds a hash map per call), too slow for 2,200 items. So each slug's
//! bigram multiset is indexed once at load time (bigram → slugs holding it);
//! a query walks only the postings of its own bigrams to count the shared
//! bigrams per slug, which gives the exact Dice score (the same integer
//! arithmetic as strsim). The few candidates at or above the floor are then
//! scored with strsim itself, so the certainty is strsim's number.

use std::collections::HashMap;

/// Lowest similarity a suggestion may have (scores are 0.0-1.0).
pub const SUGGESTION_FLOOR: f64 = 0.4;

/// Most suggestions returned for one miss.
pub const MAX_SUGGESTIONS: usize = 5;

/// One "did you mean" suggestion.
#[derive(Debug, Clone, PartialEq)]
pub struct Suggestion {
    /// The suggested record's slug.
    pub slug: String,
    /// Sørensen–Dice similarity, 0.0-1.0.
    pub score: f64,
}

impl Suggestion {
    /// The score as two-decimal text (`"0.57"`).
    pub fn certainty_text(&self) -> String {
        format!("{:.2}", self.score)
    }
}

/// Precomputed bigram postings over a list of slugs.
#[derive(Debug, Default)]
pub(crate) struct SuggestionIndex {
    /// bigram → (slug index, count of that bigram in the slug)
    postings: HashMap<(char, char), Vec<(u32, u16)>>,
    /// Length in bytes of each slug, whitespace removed (strsim uses bytes).
    lengths: Vec<usize>,
}

fn without_whitespace(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

fn bigram_counts(s: &str) -> Vec<((char, char), u16)> {
    let chars: Vec<char> = s.chars().collect();
    let mut grams: Vec<(char, char)> = chars.windows(2).map(|w| (w[0], w[1])).collect();
    grams.sort_unstable();
    let mut counts: Vec<((char, char), u16)> = Vec::with_capacity(grams.len());
    for g in grams {
        match counts.last_mut() {
            Some((last, n)) if *last == g => *n += 1,
            _ => counts.push((g, 1)),
        }
    }
    counts
}

impl SuggestionIndex {
    /// Indexes `slugs` (their order gives the indices). A slug repeated
    /// is suggested once, as its first index.
    pub(crate) fn new<'a>(slugs: impl IntoIterator<Item = &'a str>) -> Self {
        let mut index = SuggestionIndex::default();
        let mut seen = std::collections::HashSet::new();
        for (i, slug) in slugs.into_iter().enumerate() {
            let slug = without_whitespace(slug);
            if !seen.insert(slug.clone()) {
                // Never touched by a query, and too short for the scan of
                // one-character keys.
                index.lengths.push(0);
                continue;
            }
            index.lengths.push(slug.len());
            for (gram, count) in bigram_counts(&slug) {
                index
                    .postings
                    .entry(gram)
                    .or_default()
                    .push((i as u32, count));
            }
        }
        index
    }

    /// Suggestions for `key` (already a lookup key) among the indexed slugs.
    pub(crate) fn suggest<'a>(
        &self,
        key: &str,
        slug_of: impl Fn(usize) -> &'a str,
    ) -> Vec<Suggestion> {
        let key = without_whitespace(key);
        if key.len() < 2 {
            // strsim scores only identical strings (1.0) when one is this short
            return (0..self.lengths.len())
                .filter(|i| self.lengths[*i] == key.len() && slug_of(*i) == key)
                .map(|i| Suggestion {
                    slug: slug_of(i).to_owned(),
                    score: 1.0,
                })
                .take(MAX_SUGGESTIONS)
                .collect();
        }
        let mut shared = vec![0u16; self.lengths.len()];
        let mut touched: Vec<u32> = Vec::new();
        for (gram, query_count) in bigram_counts(&key) {
            if let Some(list) = self.postings.get(&gram) {
                for &(slug, count) in list {
                    let s = &mut shared[slug as usize];
                    if *s == 0 {
                        touched.push(slug);
                    }
                    *s += query_count.min(count);
                }
            }
        }
        let mut found: Vec<Suggestion> = touched
            .into_iter()
            .filter_map(|i| {
                let len = self.lengths[i as usize];
                if len < 2 {
                    return None;
                }
                let dice = 2.0 * f64::from(shared[i as usize]) / (key.len() + len - 2) as f64;
                // a small margin so float rounding never drops a candidate;
                // the exact score below decides
                if dice + 1e-9 < SUGGESTION_FLOOR {
                    return None;
                }
                let slug = slug_of(i as usize);
                let score = strsim::sorensen_dice(&key, slug);
                (score >= SUGGESTION_FLOOR).then(|| Suggestion {
                    slug: slug.to_owned(),
                    score,
                })
            })
            .collect();
        found.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| a.slug.cmp(&b.slug))
        });
        found.truncate(MAX_SUGGESTIONS);
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SLUGS: &[&str] = &[
        "karate-chop",
        "pound",
        "double-slap",
        "comet-punch",
        "mega-punch",
        "pay-day",
        "fire-punch",
        "ice-punch",
        "thunder-punch",
        "scratch",
        "thunderbolt",
        "thunder",
        "a",
        "aa",
    ];

    /// The index's shared-bigram count must give strsim's exact score for
    /// every slug, so no candidate above the floor is ever missed.
    #[test]
    fn index_matches_strsim_for_every_slug() {
        let index = SuggestionIndex::new(SLUGS.iter().copied());
        for query in [
            "karate-chp",
            "punch",
            "thunder",
            "aa",
            "a",
            "ppppp",
            "fire",
            "icepunch",
            "thunderbolt",
        ] {
            let got = index.suggest(query, |i| SLUGS[i]);
            let mut want: Vec<(f64, &str)> = SLUGS
                .iter()
                .map(|s| (strsim::sorensen_dice(query, s), *s))
                .filter(|(score, _)| *score >= SUGGESTION_FLOOR)
                .collect();
            want.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
            want.truncate(MAX_SUGGESTIONS);
            let got: Vec<(f64, &str)> = got.iter().map(|s| (s.score, s.slug.as_str())).collect();
            assert_eq!(got, want, "query {query}");
        }
    }

    proptest::proptest! {
        /// For any query, the index returns exactly what scoring every
        /// slug with strsim (floor, best first, ties by slug, at most 5) does.
        #[test]
        fn index_equals_a_full_strsim_scan(query in "[a-z -]{0,14}|\\PC{0,8}") {
            let key = crate::lookup_key(&query);
            let index = SuggestionIndex::new(SLUGS.iter().copied());
            let got: Vec<(f64, String)> =
                index.suggest(&key, |i| SLUGS[i]).into_iter().map(|s| (s.score, s.slug)).collect();
            let mut want: Vec<(f64, String)> = SLUGS
                .iter()
                .map(|s| (strsim::sorensen_dice(&key, s), (*s).to_owned()))
                .filter(|(score, _)| *score >= SUGGESTION_FLOOR)
                .collect();
            want.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
            want.truncate(MAX_SUGGESTIONS);
            proptest::prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn best_first_and_floored() {
        let index = SuggestionIndex::new(SLUGS.iter().copied());
        let got = index.suggest("karate-chp", |i| SLUGS[i]);
        assert_eq!(got[0].slug, "karate-chop");
        assert_eq!(got[0].certainty_text(), "0.84");
        assert!(got.iter().all(|s| s.score >= SUGGESTION_FLOOR));
        assert!(index.suggest("zzzzzz", |i| SLUGS[i]).is_empty());
        let punches = index.suggest("punch", |i| SLUGS[i]);
        assert!(punches.len() <= MAX_SUGGESTIONS);
        assert!(punches.windows(2).all(|w| w[0].score >= w[1].score));
    }
}
