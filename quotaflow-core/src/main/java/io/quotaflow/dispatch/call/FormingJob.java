package io.quotaflow.dispatch.call;

import io.quotaflow.batch.BatchJob;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/** A job being collected. */
final class FormingJob {
    final long startedAt;
    final List<BatchJob.Call> calls = new ArrayList<>();
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    long recordBytes;
    /** The job's span, collecting its tickets' links until it is submitted. */
    io.quotaflow.tracing.Tracing.Job span = io.quotaflow.tracing.Tracing.Job.NONE;

    FormingJob(long startedAt) {
        this.startedAt = startedAt;
    }
}
