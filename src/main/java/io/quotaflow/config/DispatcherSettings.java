package io.quotaflow.config;


import java.util.Objects;

/** Everything the topology needs to know, as one immutable value. */
public record DispatcherSettings(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry,
                                 RecordLimits limits, TopicNames topics) {

    /** Settings with the unprefixed topic names. */
    public DispatcherSettings(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry,
                              RecordLimits limits) {
        this(model, quota, batch, retry, limits, TopicNames.DEFAULT);
    }

    /** Settings with the default record limits. */
    public DispatcherSettings(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry) {
        this(model, quota, batch, retry, RecordLimits.ofDefaults());
    }

    public DispatcherSettings {
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(quota, "quota");
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(topics, "topics");
    }

    public DispatcherSettings withLimits(RecordLimits value) {
        return new DispatcherSettings(model, quota, batch, retry, value, topics);
    }

    public DispatcherSettings withTopics(TopicNames value) {
        return new DispatcherSettings(model, quota, batch, retry, limits, value);
    }

    /** The quota scope of this model endpoint and key. */
    public String scope() {
        return QuotaScope.of(model);
    }
}
