package io.quotaflow.cli;

/** The exit codes every command uses (each command's help lists the ones it can return). */
public final class ExitCodes {

    /** Done, or stopped cleanly on Ctrl+C / SIGTERM. */
    public static final int OK = 0;
    /** The work failed (a cluster or provider problem, a ticket lost, a scenario failed). */
    public static final int FAILURE = 1;
    /** Bad usage or configuration: fix the command line, the config file or the environment. */
    public static final int USAGE = 2;

    private ExitCodes() {
    }
}
