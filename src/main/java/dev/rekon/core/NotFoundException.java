package dev.rekon.core;

/**
 * The server answered that what a request named is not there (HTTP 404): no such object, or, for a list, no such
 * kind served at that path. Sorted at the edge, so that an area that expects it (a list of a kind that may not be
 * installed) catches this type, never a code. Uncaught, it is a refusal like any other.
 */
public class NotFoundException extends RefusedException {

    public NotFoundException(ObjectRef ref, String message, Throwable cause) {
        super(404, ref, message, cause);
    }
}
