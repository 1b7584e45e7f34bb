import { Module } from '@nestjs/common';
import { AvailabilityModule } from '../availability/availability.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { CommonHeaders } from './common-headers.js';
import { DocumentResponder } from './document-responder.js';
import { ContentEncodings } from './content-encoding.js';
import { FastPaths } from './fast-paths.js';
import { FrontDoor } from './front-door.js';
import { MalformedRequestAnswer } from './malformed-request.js';

/** HTTP helpers every controller uses, and the front door every request passes; feature modules import it. */
@Module({
  imports: [AvailabilityModule, RateLimitModule],
  providers: [DocumentResponder, CommonHeaders, FrontDoor, MalformedRequestAnswer, FastPaths, ContentEncodings],
  exports: [DocumentResponder, CommonHeaders, FrontDoor, MalformedRequestAnswer, FastPaths, ContentEncodings],
})
export class HttpCommonModule {}
