package io.quotaflow.dispatch.call;

import io.quotaflow.batch.BatchApiClient;
import io.quotaflow.batch.BatchStatus;
import io.quotaflow.llm.ModelOutcome;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** What a Batch API request reports from its HTTP thread ({@link BatchRequests}), applied by the {@link BatchCaller} on the stream thread. */
sealed interface BatchEvent {

    record Submitted(String key, BatchApiClient.Info info) implements BatchEvent {
    }

    record SubmitFailed(String key, Throwable error) implements BatchEvent {
    }

    record Polled(String key, BatchApiClient.Info info) implements BatchEvent {
    }

    record Downloaded(String key, BatchStatus status, Map<String, ModelOutcome> outcomes, Set<String> unfinished)
            implements BatchEvent {
    }

    record Missed(String key, String what) implements BatchEvent {
    }

    record Listed(List<BatchApiClient.Info> jobs) implements BatchEvent {
    }

    record ListFailed(String what) implements BatchEvent {
    }
}
