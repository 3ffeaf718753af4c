package io.quotaflow.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * What became of the published tickets, from everything a {@code read_committed} consumer read on
 * {@code tickets.classified} and {@code tickets.dlq}.
 *
 * @param published            distinct ticket ids published
 * @param classified           published ids with at least one result
 * @param deadLettered         published ids with a dead letter and no result
 * @param lost                 published ids with neither a result nor a dead letter (must be 0)
 * @param duplicated           ids with more than one result record (must be 0)
 * @param duplicateRecords     result records beyond the first of their id
 * @param classifiedAndDeadLettered ids with both a result and a dead letter (should be 0)
 * @param unexpected           ids in the output topics that were never published (left over from elsewhere)
 * @param deadLettersByKind    dead-lettered ids by {@code qf.error.kind}
 * @param lostIds              up to {@value #SAMPLE} lost ids, in publish order
 * @param duplicatedIds        up to {@value #SAMPLE} duplicated ids, in publish order
 */
public record ChaosAccounting(long published, long classified, long deadLettered, long lost, long duplicated,
                              long duplicateRecords, long classifiedAndDeadLettered, long unexpected,
                              Map<String, Long> deadLettersByKind, List<String> lostIds, List<String> duplicatedIds) {

    /** Most ids listed in {@link #lostIds()} and {@link #duplicatedIds()}. */
    public static final int SAMPLE = 20;

    /** One dead-letter record: its key and kind. */
    public record DeadLetter(String id, String kind) {
    }

    public ChaosAccounting {
        deadLettersByKind = Map.copyOf(deadLettersByKind);
        lostIds = List.copyOf(lostIds);
        duplicatedIds = List.copyOf(duplicatedIds);
    }

    /**
     * @param publishedIds ids published, in publish order (repeats are counted once)
     * @param resultKeys   the key of every record read from {@code tickets.classified}, repeats included
     * @param deadLetters  every record read from {@code tickets.dlq}
     */
    public static ChaosAccounting of(Collection<String> publishedIds, List<String> resultKeys, List<DeadLetter> deadLetters) {
        Objects.requireNonNull(publishedIds, "publishedIds");
        Set<String> published = new LinkedHashSet<>(publishedIds);
        Map<String, Integer> results = new HashMap<>();
        for (String key : resultKeys) {
            results.merge(String.valueOf(key), 1, Integer::sum);
        }
        Map<String, String> dead = new HashMap<>();
        for (DeadLetter d : deadLetters) {
            dead.putIfAbsent(String.valueOf(d.id()), d.kind() == null ? "unknown" : d.kind());
        }
        long classified = 0;
        long deadLettered = 0;
        long lost = 0;
        long duplicated = 0;
        long extraRecords = 0;
        long both = 0;
        Map<String, Long> byKind = new TreeMap<>();
        List<String> lostIds = new ArrayList<>();
        List<String> duplicatedIds = new ArrayList<>();
        for (String id : published) {
            int n = results.getOrDefault(id, 0);
            String kind = dead.get(id);
            if (n > 0) {
                classified++;
                if (kind != null) {
                    both++;
                }
                if (n > 1) {
                    duplicated++;
                    extraRecords += n - 1;
                    if (duplicatedIds.size() < SAMPLE) {
                        duplicatedIds.add(id);
                    }
                }
            } else if (kind != null) {
                deadLettered++;
                byKind.merge(kind, 1L, Long::sum);
            } else {
                lost++;
                if (lostIds.size() < SAMPLE) {
                    lostIds.add(id);
                }
            }
        }
        Set<String> seen = new LinkedHashSet<>(results.keySet());
        seen.addAll(dead.keySet());
        seen.removeAll(published);
        // a repeat of an id never published still counts as a duplicate result record
        for (String id : seen) {
            int n = results.getOrDefault(id, 0);
            if (n > 1) {
                duplicated++;
                extraRecords += n - 1;
                if (duplicatedIds.size() < SAMPLE) {
                    duplicatedIds.add(id);
                }
            }
        }
        return new ChaosAccounting(published.size(), classified, deadLettered, lost, duplicated, extraRecords, both, seen.size(),
                byKind, lostIds, duplicatedIds);
    }

    /** Nothing lost, nothing duplicated. */
    public boolean clean() {
        return lost == 0 && duplicated == 0;
    }
}
