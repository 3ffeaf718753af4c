package io.quotaflow.dispatch.call;

import io.quotaflow.batch.BatchApiClient;
import io.quotaflow.batch.BatchJob;
import io.quotaflow.batch.BatchStatus;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A {@link BatchCaller}'s reconciliation with the provider: its recent jobs listed, this scope's found by
 * their key, adopted, cancelled, or their calls asked again.
 */
final class BatchReconcile {

    private static final Logger LOG = LoggerFactory.getLogger(BatchCaller.class);

    private BatchReconcile() {
    }

    /** {@link BatchCaller#restore}: this scope's jobs taken back from the store, the ids of their calls returned. */
    static Set<String> restore(BatchCaller c, long now) {
        Set<String> calls = new HashSet<>();
        int intents = 0;
        try (KeyValueIterator<String, BatchJob> it = c.jobs.all()) {
            while (it.hasNext()) {
                var kv = it.next();
                if (c.scope.equals(kv.value.scope())) {
                    c.live.put(kv.key, new LiveJob(kv.key, kv.value, now));
                    c.enqueued += kv.value.tokens();
                    intents += kv.value.isAccepted() ? 0 : 1;
                    kv.value.calls().forEach(call -> calls.add(call.customId()));
                }
            }
        }
        // only the scope's owner has its jobs in its store: another task's caller of the same scope must never cancel them
        c.active = !c.live.isEmpty();
        c.nextReconcile = c.active ? now : Long.MAX_VALUE;
        if (!c.live.isEmpty()) {
            LOG.info("{}: {} batch jobs of {} calls resumed ({} not known to be accepted: looked for at the provider)", c.who, c.live.size(),
                    calls.size(), intents);
        }
        return calls;
    }

    /**
     * Lists the provider's recent jobs ({@value BatchCaller#LIST_PAGES} pages at most) to find this scope's by their
     * key: at a restore, after a submission whose answer was lost, and every {@value BatchCaller#RECONCILE_EVERY_POLLS}
     * polls while jobs are out.
     */
    static void reconcile(BatchCaller c) {
        c.listing = true;
        c.nextReconcile = Long.MAX_VALUE;
        c.requests.list(BatchCaller.LIST_PAGES);
    }

    /**
     * What the provider holds of this scope: a job whose key is a stored intent is adopted (its calls are
     * still out for that intent); a running job under a key not stored (its intent lost, or its calls
     * already answered otherwise) is cancelled; an intent the provider does not hold was never accepted:
     * its calls are asked again.
     */
    static void listed(BatchCaller c, List<BatchApiClient.Info> found, long now, BatchCaller.Answers answers) {
        c.listing = false;
        Set<String> seen = new HashSet<>();
        for (BatchApiClient.Info info : found) {
            if (!c.scope.equals(info.jobScope()) || info.jobKey() == null || info.id() == null) {
                continue;
            }
            seen.add(info.jobKey());
            LiveJob job = c.live.get(info.jobKey());
            if (job != null && !job.job.isAccepted() && !job.submitting) {
                job.job = job.job.accepted(info.id());
                job.nextPoll = now;
                c.jobs.put(job.key, job.job);
                LOG.info("{}: batch job {} found at the provider by its key {}: adopted, {} calls", c.who, info.id(), job.key,
                        job.job.calls().size());
            } else if (job == null && !info.status().terminal() && info.status() != BatchStatus.CANCELLING) {
                LOG.warn("{}: batch job {} (key {}) is this route's but no stored job's: cancelled", c.who, info.id(), info.jobKey());
                c.requests.cancel(info.id());
            }
        }
        for (LiveJob job : List.copyOf(c.live.values())) {
            if (!job.job.isAccepted() && !job.submitting && !seen.contains(job.key)) {
                LOG.info("{}: batch job key {} was never accepted by the provider; its {} calls are asked again", c.who, job.key,
                        job.job.calls().size());
                c.forget(job);
                job.job.calls().forEach(call -> answers.requeued(call.customId(), now));
            }
        }
        if (!c.live.isEmpty()) {
            c.nextReconcile = now + BatchCaller.RECONCILE_EVERY_POLLS * c.settings.poll().toMillis();
        }
    }
}
