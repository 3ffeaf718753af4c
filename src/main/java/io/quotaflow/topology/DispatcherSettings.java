package io.quotaflow.topology;

import io.quotaflow.config.BatchSettings;
import io.quotaflow.config.ModelSettings;
import io.quotaflow.config.QuotaSettings;
import io.quotaflow.config.RetrySettings;
import io.quotaflow.quota.QuotaScope;

import java.util.Objects;

/** Everything the topology needs to know, as one immutable value. */
public record DispatcherSettings(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry) {

    public DispatcherSettings {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(quota, "quota");
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(retry, "retry");
    }

    /** The quota scope of this model endpoint and key. */
    public String scope() {
        return QuotaScope.of(model);
    }
}
