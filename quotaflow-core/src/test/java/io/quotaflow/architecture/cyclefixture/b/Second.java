package io.quotaflow.architecture.cyclefixture.b;

import io.quotaflow.architecture.cyclefixture.c.Third;

/** Part of the deliberate cycle a → b → c → a. */
public final class Second {

    public Third next() {
        return new Third();
    }
}
