package io.quotaflow.cli;

import java.util.Map;

/**
 * A command (or mixin) that reads {@code QUOTAFLOW_*} variables: the command line hands it the
 * environment before it runs (the process's, or a test's), see {@link ClusterPreflight}.
 */
public interface ReadsEnvironment {

    /** Reads the environment from {@code env} instead of the process's. */
    void environment(Map<String, String> env);
}
