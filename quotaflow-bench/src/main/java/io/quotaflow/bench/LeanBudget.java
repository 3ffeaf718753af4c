package io.quotaflow.bench;

import io.quotaflow.settings.BatchSettings;

import java.util.ArrayList;
import java.util.List;

/** How a step of {@link LeanBenchmark} sizes {@code max_tokens}: prompt version 1's rule or the pipeline's. */
interface LeanBudget {
    int maxTokens(int items, int boost);

    void record(int items, long completionTokens);

    /** An answer of {@code items} tickets cut at {@code maxTokens}. */
    default void recordCut(int items, int maxTokens) {
    }

    /** The per-ticket {@code max_tokens} rule of prompt version 1: 99th percentile of answers, plus 15 % and a token. */
    final class Legacy implements LeanBudget {
        private final int initial;
        private final List<Double> samples = new ArrayList<>();
        private int perItem;

        Legacy(int initial) {
            this.initial = initial;
            this.perItem = initial;
        }

        @Override
        public int maxTokens(int items, int boost) {
            return BatchSettings.maxTokens(items, perItem) * Math.max(1, boost);
        }

        @Override
        public void record(int items, long completionTokens) {
            samples.add(Math.max(0, completionTokens - BatchSettings.COMPLETION_ENVELOPE) / (double) items);
            if (samples.size() > 256) {
                samples.remove(0);
            }
            if (samples.size() >= 8) {
                List<Double> sorted = samples.stream().sorted().toList();
                double p = sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(0.99 * sorted.size()) - 1));
                perItem = (int) Math.max(Math.max(6, initial / 3), Math.min(initial * 4L, Math.ceil(p * 1.15) + 1));
            }
        }

    }

    /** The pipeline's {@link io.quotaflow.quota.CompletionBudget}. */
    static LeanBudget learned(int initial) {
        io.quotaflow.quota.CompletionBudget budget = new io.quotaflow.quota.CompletionBudget(initial);
        return new LeanBudget() {
            @Override
            public int maxTokens(int items, int boost) {
                return budget.maxTokensFor(items, boost);
            }

            @Override
            public void record(int items, long completionTokens) {
                budget.record(items, completionTokens);
            }

            @Override
            public void recordCut(int items, int maxTokens) {
                budget.recordCut(items, maxTokens);
            }
        };
    }
}
