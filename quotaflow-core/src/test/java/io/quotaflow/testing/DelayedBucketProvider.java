package io.quotaflow.testing;

import io.quotaflow.llm.ModelClient;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.quota.RateLimitInfo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.LongSupplier;

/**
 * A provider's token bucket on a test's clock, answering late: {@code tpm} tokens a minute, {@code burstSeconds} of
 * them at most, starting full; a call is charged its prompt and {@code max_tokens} when it arrives, which is when its
 * rate-limit headers are taken (as real providers do), and answered {@code 350 ms + 120 ms a ticket} later, once the
 * test {@link #release releases} what is due; what the bucket does not hold is refused with a 429.
 */
public final class DelayedBucketProvider implements ModelClient {

    private record Due(long atMs, CompletableFuture<ModelOutcome> future, ModelOutcome outcome) {
    }

    private final long tpm;
    private final double capacity;
    private final LongSupplier clockMs;
    private final List<Due> due = new ArrayList<>();
    private final List<long[]> admitted = new ArrayList<>();
    private double level;
    private long lastMs = -1;
    private int refused;

    public DelayedBucketProvider(long tpm, double burstSeconds, LongSupplier clockMs) {
        this.tpm = tpm;
        this.capacity = tpm * burstSeconds / 60.0;
        this.level = capacity;
        this.clockMs = clockMs;
    }

    @Override
    public synchronized CompletionStage<ModelOutcome> classify(ModelRequest request) {
        long now = clockMs.getAsLong();
        if (lastMs >= 0) {
            level = Math.min(capacity, level + (now - lastMs) * tpm / 60_000.0);
        }
        lastMs = now;
        long cost = request.prompt().promptTokens() + request.prompt().maxTokens();
        ModelOutcome outcome;
        if (level < cost) {
            refused++;
            outcome = new ModelOutcome.RateLimited(Optional.of(Duration.ofSeconds(1)), "Rate limit reached", Optional.empty(),
                    Optional.of(cost), headers(), 20);
        } else {
            level -= cost;
            admitted.add(new long[] {now, cost});
            Map<String, ModelOutcome.Label> labels = new LinkedHashMap<>();
            for (ModelItem item : request.items()) {
                labels.put(item.id(), new ModelOutcome.Label("billing", "low"));
            }
            outcome = new ModelOutcome.Answered(labels, Map.of(), "stop", request.prompt().promptTokens(), 12L * labels.size(),
                    headers(), 350);
        }
        CompletableFuture<ModelOutcome> future = new CompletableFuture<>();
        due.add(new Due(now + 350 + 120L * request.items().size(), future, outcome));
        return future;
    }

    private RateLimitInfo headers() {
        return new RateLimitInfo(OptionalLong.of(100_000), OptionalLong.of(tpm), OptionalLong.of(99_000),
                OptionalLong.of((long) Math.floor(level)), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** Answers the calls whose answer is due by now. */
    public void release() {
        List<Due> go = new ArrayList<>();
        synchronized (this) {
            long now = clockMs.getAsLong();
            due.removeIf(d -> d.atMs() <= now && go.add(d));
        }
        go.forEach(d -> d.future().complete(d.outcome()));
    }

    /** Tokens admitted in {@code [fromMs, toMs)}. */
    public synchronized long tokensBetween(long fromMs, long toMs) {
        return admitted.stream().filter(a -> a[0] >= fromMs && a[0] < toMs).mapToLong(a -> a[1]).sum();
    }

    public synchronized int refused() {
        return refused;
    }
}
