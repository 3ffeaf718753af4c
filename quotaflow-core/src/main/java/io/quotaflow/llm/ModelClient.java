package io.quotaflow.llm;

import java.util.concurrent.CompletionStage;

/**
 * Classifies a batch asynchronously. Implementations never block the caller and never complete
 * exceptionally: every failure is a {@link ModelOutcome}.
 */
public interface ModelClient extends AutoCloseable {

    CompletionStage<ModelOutcome> classify(ModelRequest request);

    @Override
    default void close() {
    }
}
