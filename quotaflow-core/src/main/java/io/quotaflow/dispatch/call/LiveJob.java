package io.quotaflow.dispatch.call;

import io.quotaflow.batch.BatchJob;
import io.quotaflow.batch.BatchStatus;

/** A job of the store: an intent on its way to the provider or not yet found, or a job the provider accepted. */
final class LiveJob {
    final String key;
    BatchJob job;
    long nextPoll;
    boolean busy;
    /** Its upload is on its way (this instance's). */
    boolean submitting;
    BatchStatus status = BatchStatus.VALIDATING;
    boolean unknownLogged;
    /** The job's span (none for a job restored from the store). */
    io.quotaflow.tracing.Tracing.Job span = io.quotaflow.tracing.Tracing.Job.NONE;

    LiveJob(String key, BatchJob job, long nextPoll) {
        this.key = key;
        this.job = job;
        this.nextPoll = nextPoll;
    }
}
