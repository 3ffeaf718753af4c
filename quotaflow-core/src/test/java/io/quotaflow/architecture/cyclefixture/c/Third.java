package io.quotaflow.architecture.cyclefixture.c;

import io.quotaflow.architecture.cyclefixture.a.First;

/** Closes the deliberate cycle a → b → c → a. */
public final class Third {

    public First next() {
        return new First();
    }
}
