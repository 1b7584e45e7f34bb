import { Module } from '@nestjs/common';
import { HttpCommonModule } from '../common/http/http-common.module.js';
import { ChangesController } from './changes.controller.js';
import { ChangesService } from './changes.service.js';

/** The change feed: every dataset release with what it changed, as JSON and Atom. */
@Module({
  imports: [HttpCommonModule],
  controllers: [ChangesController],
  providers: [ChangesService],
  exports: [ChangesService],
})
export class ChangesModule {}
