package io.quotaflow.cli;

import java.util.Map;
import java.util.Set;

/**
 * A command (or mixin) that reads {@code QUOTAFLOW_*} variables: the command line hands it the
 * environment before it runs (the process's, or a test's), see {@link ClusterPreflight}.
 */
public interface ReadsEnvironment {

    /**
     * Reads the environment from {@code env} instead of the process's, accepting
     * {@code extraVariables}: the {@code QUOTAFLOW_*} variables the distribution's own commands read.
     */
    void environment(Map<String, String> env, Set<String> extraVariables);

    /** Reads the environment from {@code env}, with no extra variables (the production distribution). */
    default void environment(Map<String, String> env) {
        environment(env, Set.of());
    }
}
