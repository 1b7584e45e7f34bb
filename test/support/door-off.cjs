// Jest setup file of the e2e-door-off project (jest.config.js): its suites start their apps with the
// front door switched off (startTestApp passes FRONT_DOOR on to the app's settings).
process.env.FRONT_DOOR = 'off';
