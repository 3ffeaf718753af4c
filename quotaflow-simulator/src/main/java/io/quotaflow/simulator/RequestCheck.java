package io.quotaflow.simulator;

import java.util.Optional;

/**
 * The checks a chat-completion body meets after authentication, as a value: a valid
 * {@link ChatRequest}, a 400 (what is wrong, and which parameter) or a 404 for another model.
 */
sealed interface RequestCheck permits RequestCheck.Valid, RequestCheck.Invalid, RequestCheck.UnknownModel {

    /** The body is a request the simulator serves. */
    record Valid(ChatRequest request) implements RequestCheck {
    }

    /**
     * A 400 {@code invalid_request_error}; {@code param} may be null; {@code model} is the served
     * model the body names, when it got that far.
     */
    record Invalid(String message, String param, Optional<String> model) implements RequestCheck {
    }

    /** A well-formed request for a model the simulator does not serve. */
    record UnknownModel(String model) implements RequestCheck {
    }
}
