/*
 * The google.script.run stand-in injected into the sidebar page (plain browser JavaScript).
 * It follows Apps Script's client API: withSuccessHandler, withFailureHandler and withUserObject
 * each return a new runner (the original is untouched); every server global is a method; a call
 * returns nothing and later invokes exactly one handler, asynchronously, with the user object as
 * the second argument. Arguments must be JSON-safe as Apps Script requires (Dates and functions
 * are refused). window.__GAS_GLOBALS__ and window.__GAS_RUN_PATH__ are set just before this runs.
 */
/* global window, console, setTimeout, fetch */
(function () {
  'use strict';
  var globalNames = window.__GAS_GLOBALS__ || [];
  var runPath = window.__GAS_RUN_PATH__ || '/playground/run';

  function illegal(path) {
    return new Error('Failed due to illegal value in property: ' + path);
  }

  function checkArgument(value, path) {
    if (value === null || value === undefined) return;
    var type = typeof value;
    if (type === 'string' || type === 'number' || type === 'boolean') return;
    if (type === 'function' || value instanceof Date) throw illegal(path);
    if (Array.isArray(value)) {
      value.forEach(function (item, index) {
        checkArgument(item, path + '[' + index + ']');
      });
      return;
    }
    if (type === 'object') {
      Object.keys(value).forEach(function (key) {
        checkArgument(value[key], path + '.' + key);
      });
      return;
    }
    throw illegal(path);
  }

  function notifyParent(name) {
    try {
      window.parent.postMessage({ type: 'playground:ran', name: name }, '*');
    } catch {
      /* the playground page is optional */
    }
  }

  function deliver(state, ok, payload) {
    var handler = ok ? state.success : state.failure;
    if (typeof handler === 'function') handler(payload, state.userObject);
    else if (!ok) console.error('Uncaught server error (no failure handler):', payload);
  }

  function invoke(state, name, args) {
    try {
      args.forEach(function (arg, index) {
        checkArgument(arg, String(index));
      });
    } catch (error) {
      setTimeout(function () {
        deliver(state, false, error);
      }, 0);
      return;
    }
    // Calls not yet answered, for tests that drive the page's clock (they wait for these to settle).
    window.__GAS_IN_FLIGHT__ = (window.__GAS_IN_FLIGHT__ || 0) + 1;
    fetch(runPath, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: name, args: args }),
    })
      .then(function (response) {
        return response.json();
      })
      .then(
        function (reply) {
          if (reply.ok) {
            deliver(state, true, reply.value);
          } else {
            var error = new Error(reply.error ? reply.error.message : 'Unknown server error');
            error.name = reply.error ? reply.error.name : 'ScriptError';
            deliver(state, false, error);
          }
        },
        function (failure) {
          deliver(state, false, new Error('NetworkError: Connection failure due to HTTP 0 (' + String(failure) + ')'));
        },
      )
      .then(function () {
        window.__GAS_IN_FLIGHT__ -= 1;
        notifyParent(name);
      });
  }

  function copy(state, key, value) {
    var next = { success: state.success, failure: state.failure, userObject: state.userObject };
    next[key] = value;
    return next;
  }

  function runner(state) {
    var run = {
      withSuccessHandler: function (handler) {
        return runner(copy(state, 'success', handler));
      },
      withFailureHandler: function (handler) {
        return runner(copy(state, 'failure', handler));
      },
      withUserObject: function (userObject) {
        return runner(copy(state, 'userObject', userObject));
      },
    };
    globalNames.forEach(function (name) {
      run[name] = function () {
        invoke(state, name, Array.prototype.slice.call(arguments));
      };
    });
    return run;
  }

  window.google = {
    script: {
      run: runner({ success: null, failure: null, userObject: undefined }),
      host: {
        origin: window.location.origin,
        close: function () {
          window.parent.postMessage({ type: 'playground:close' }, '*');
        },
        setHeight: function () {},
        setWidth: function () {},
        editor: { focus: function () {} },
      },
    },
  };
})();
