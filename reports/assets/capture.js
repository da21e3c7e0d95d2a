// Runs first: records script errors, console errors and blocked requests, so the page's
// #selftest (common.js) can report them.
window.gpuplanProblems = [];
window.addEventListener('error', function (e) {
  window.gpuplanProblems.push('script error: ' + (e.message || 'unknown') + (e.lineno ? ' (line ' + e.lineno + ')' : ''));
});
document.addEventListener('securitypolicyviolation', function (e) {
  window.gpuplanProblems.push('blocked request: ' + e.blockedURI + ' (' + e.violatedDirective + ')');
});
(function () {
  var original = console.error;
  console.error = function () {
    window.gpuplanProblems.push('console.error: ' + Array.prototype.join.call(arguments, ' '));
    return original.apply(console, arguments);
  };
})();
